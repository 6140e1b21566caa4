/**
 * The database cannot be reached (refused, terminated, timed out): retryable, and answered by every
 * service as a documented 503 with Retry-After rather than a 500.
 */
import { ChaingateError } from "@chaingate/errors";

export class DatabaseUnavailableError extends ChaingateError {
  override readonly name = "DatabaseUnavailableError";
  constructor(cause: unknown) {
    super("database_unavailable", "The database is unavailable; try again later.", { cause, retryable: true });
  }
}

/** Postgres SQLSTATE classes and socket codes that mean "no database right now", not "bad query". */
const CONNECTION_SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "53300"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection terminated unexpectedly/i;

export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (CONNECTION_SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.some(isConnectionFailure)) return true; // AggregateError: every address refused
  return error instanceof Error && CONNECTION_MESSAGES.test(error.message);
}
