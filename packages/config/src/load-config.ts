/**
 * Every service reads its settings through one zod schema over the environment. A bad or missing
 * variable stops the process with a message that names it.
 */
import { ChaingateError } from "@chaingate/errors";
import type { z } from "zod";

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
/** Query parameters hosted node providers take keys in. */
const SECRET_QUERY_PARAMETER = /^(api[-_]?key|key|token|access[-_]?token|secret|auth)$/i;
/** A path segment that looks like a provider key (Infura /v3/<key>, Alchemy /v2/<key>, QuickNode /<token>/): long, with letters and digits. */
const KEY_LIKE_SEGMENT = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{16,}$/;
const REDACTED = "[redacted]";

/**
 * The effective config for a start-up log line: string values of secret settings masked, and in
 * every URL the password, key-like path segments and key query parameters masked.
 */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => {
      if (typeof value === "string" && value !== "" && SECRET_NAME.test(name)) return [name, REDACTED];
      if (typeof value === "string") return [name, redactUrl(value)];
      if (Array.isArray(value)) return [name, value.map((v) => (typeof v === "string" ? redactUrl(v) : v))];
      return [name, value];
    }),
  );
}

/** A URL with its secrets masked; anything that is not an absolute URL comes back unchanged. */
export function redactUrl(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(value);
  if (!match) return value;
  const [, scheme, authority = "", path = "", query = "", fragment = ""] = match;
  // Edited as text, not through URL, so what is not secret keeps its exact spelling.
  const maskedAuthority = authority.replace(/^([^:@]*):[^@]*@/, "$1:redacted@");
  const maskedPath = path
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(segment) ? REDACTED : segment))
    .join("/");
  const maskedQuery = query.replace(/([?&])([^=&]+)=([^&]*)/g, (whole, separator: string, name: string) =>
    SECRET_QUERY_PARAMETER.test(decodeURIComponentSafe(name)) ? `${separator}${name}=${REDACTED}` : whole,
  );
  return `${scheme}${maskedAuthority}${maskedPath}${maskedQuery}${fragment}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
