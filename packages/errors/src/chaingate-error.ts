/**
 * The base of every error chaingate raises on purpose. `code` is stable (tables map it to HTTP
 * statuses and bodies), `retryable` tells consumers whether redelivery can help.
 */
export interface ChaingateErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export class ChaingateError extends Error {
  override name = "ChaingateError";
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: ChaingateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }
}

/** True when `error` is a ChaingateError with one of the given codes. */
export function hasErrorCode(error: unknown, ...codes: string[]): error is ChaingateError {
  return error instanceof ChaingateError && codes.includes(error.code);
}
