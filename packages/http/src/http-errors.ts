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
  database_unavailable: (error) => ({ status: 503, headers: { "retry-after": "1" }, body: { message: error.message } }),
  json_too_deep: (error) => ({ status: 400, body: { message: error.message } }),
  unsupported_encoding: (error) => ({ status: 415, body: { message: error.message } }),
  bad_request: (error) => ({ status: clientErrorStatus(error.details?.status), body: { message: error.message } }),
};

export function errorResponseFor(error: unknown, table: ErrorResponseTable = {}): ErrorResponse | undefined {
  if (!(error instanceof ChaingateError)) return undefined;
  const render = table[error.code] ?? COMMON_ERRORS[error.code];
  return render?.(error);
}

/**
 * Errors raised by express and body-parser before a handler runs, as ChaingateErrors with stable
 * codes: they carry a 4xx `status` (a body that is not the gzip it claims, an unsupported charset,
 * a malformed percent-encoding in the path) and are the client's mistake, never a 500.
 */
export function fromFrameworkError(error: unknown): ChaingateError | undefined {
  if (error instanceof ChaingateError) return error; // thrown by our own body checks (e.g. JSON depth)
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === "entity.parse.failed") return new ChaingateError("malformed_json", "The request body is not valid JSON.", { cause: error });
  if (type === "entity.too.large") return new ChaingateError("body_too_large", "The request body is too large.", { cause: error });
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new ChaingateError("unsupported_encoding", "The request body's Content-Encoding or charset is not supported.", { cause: error });
  }
  if (error instanceof URIError)
    return new ChaingateError("bad_request", "The request path is not valid percent-encoding.", { cause: error });
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ChaingateError("bad_request", "The request could not be read: its body does not match its headers.", {
      cause: error,
      details: { status },
    });
  }
  return undefined;
}

/** A framework's 4xx status kept as it is (413, 415, 400 ...); anything else is a 400. */
function clientErrorStatus(status: unknown): number {
  return typeof status === "number" && status >= 400 && status < 500 ? status : 400;
}
