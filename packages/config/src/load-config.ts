/**
 * Every service reads its settings through one zod schema over the environment. A bad or missing
 * variable stops the process with a message that names it.
 */
import type { z } from "zod";

export class ConfigError extends Error {
  override name = "ConfigError";
  readonly problems: string[];

  constructor(serviceName: string, problems: string[]) {
    super(`${serviceName}: invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = problems;
  }
}

/** Parses `env` with `schema`; throws ConfigError naming each bad variable. */
export function loadConfig<Schema extends z.ZodObject>(
  serviceName: string,
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    // path[0] is the variable; deeper segments (a list item) only refine the message.
    const variable = String(issue.path[0] ?? "(environment)");
    const received = issue.code === "invalid_type" && env[variable] === undefined ? "is not set" : issue.message;
    return `${variable}: ${received}`;
  });
  throw new ConfigError(serviceName, problems);
}

const SECRET_NAME = /(PASSWORD|SECRET|TOKEN|CREDENTIAL|(^|_)KEY$)/i;

/** The effective config for a start-up log line, with secrets and URL passwords masked. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => {
      if (value === undefined || value === "") return [name, value];
      if (SECRET_NAME.test(name)) return [name, "[redacted]"];
      if (typeof value === "string" && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) return [name, redactUrlPassword(value)];
      if (Array.isArray(value)) return [name, value.map((v) => (typeof v === "string" ? redactUrlPassword(v) : v))];
      return [name, value];
    }),
  );
}

function redactUrlPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, "$1redacted@");
}
