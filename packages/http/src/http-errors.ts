/**
 * The spec's error bodies, and the table that turns an error into a status and one of them.
 * Gateway- and framework-level errors (auth, routing, 405, 500) use `{message}`.
 */
import { ChaingateError, type ValidationError } from "@chaingate/errors";

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Maps a ChaingateError code to the response a service wants for it. */
export type ErrorResponseTable = Record<string, (error: ChaingateError) => ErrorResponse>;

export const INTERNAL_ERROR: ErrorResponse = { status: 500, body: { message: "Internal server error" } };

export function routeNotFound(path: string): ErrorResponse {
  return { status: 404, body: { message: `The route ${path.replace(/^\//, "")} could not be found.` } };
}

export function methodNotAllowed(method: string, path: string, allowed: string[]): ErrorResponse {
  const methods = allowed.join(", ");
  return {
    status: 405,
    headers: { allow: methods },
    body: { message: `The ${method} method is not supported for route ${path.replace(/^\//, "")}. Supported methods: ${methods}.` },
  };
}

/** Errors every service renders the same way; a service's own table is consulted first. */
const COMMON_ERRORS: ErrorResponseTable = {
  validation_failed: (error) => ({
    status: 422,
    body: { message: error.message, errors: (error as ValidationError).fieldErrors },
  }),
  malformed_json: (error) => ({ status: 400, body: { message: error.message } }),
  body_too_large: (error) => ({ status: 413, body: { message: error.message } }),
  not_found: (error) => ({ status: 404, body: { message: error.message } }),
};

export function errorResponseFor(error: unknown, table: ErrorResponseTable = {}): ErrorResponse | undefined {
  if (!(error instanceof ChaingateError)) return undefined;
  const render = table[error.code] ?? COMMON_ERRORS[error.code];
  return render?.(error);
}

/** body-parser's own errors, as ChaingateErrors with stable codes. */
export function fromBodyParserError(error: unknown): ChaingateError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === "entity.parse.failed") return new ChaingateError("malformed_json", "The request body is not valid JSON.", { cause: error });
  if (type === "entity.too.large") return new ChaingateError("body_too_large", "The request body is too large.", { cause: error });
  return undefined;
}
