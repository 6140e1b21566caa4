/**
 * Every service reads its settings through one zod schema over the environment. A bad or missing
 * variable stops the process with a message that names it.
 */
import { ChaingateError } from "@chaingate/errors";
import type { z } from "zod";
import { REDACTED, redactUrl } from "./redact-url.ts";

/** No try will pass until the operator fixes the settings. */
export class ConfigError extends ChaingateError {
  override name = "ConfigError";
  readonly problems: string[];

  constructor(serviceName: string, problems: string[]) {
    super("invalid_config", `${serviceName}: invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { retryable: false });
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

/** Names of settings whose string values are secrets (numbers and flags never are: XPUB_MAX_ADDRESSES_PER_KEY is a limit). */
const SECRET_NAME = /(PASSWORD|SECRET|TOKEN|CREDENTIAL|PRIVATE|(^|_)(API_)?KEY$)/i;

/**
 * The effective config for a start-up log line: string values of secret settings masked, and in
 * every URL its secrets masked (`redactUrl`), at any depth (EVM_CHAINS holds each chain's node
 * URLs inside its entries).
 */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return redactRecord(config);
}

function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [
      name,
      typeof value === "string" && value !== "" && SECRET_NAME.test(name) ? REDACTED : redactValue(value),
    ]),
  );
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactUrl(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return redactRecord(value as Record<string, unknown>);
  return value;
}
