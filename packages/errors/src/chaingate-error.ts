/**
 * The base of every error chaingate raises on purpose. `code` is stable (tables map it to HTTP
 * statuses and bodies), `retryable` tells consumers whether redelivery can help.
 */
export interface ChaingateErrorOptions {
  cause?: unknown;
  /**
   * true: a later try may pass; false: no try ever will (consumers terminate the event). Left out,
   * the error is unclassified and consumers treat it like any unknown error: they retry.
   */
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export class ChaingateError extends Error {
  override name = "ChaingateError";
  readonly code: string;
  /** undefined: not classified (see ChaingateErrorOptions.retryable). */
  readonly retryable: boolean | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: ChaingateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable;
    this.details = options.details;
  }
}

/** True only for an error marked `retryable: false`: no later try can pass. Anything else is worth retrying. */
export function isPermanentFailure(error: unknown): error is ChaingateError {
  return error instanceof ChaingateError && error.retryable === false;
}

/** True when `error` is a ChaingateError with one of the given codes. */
export function hasErrorCode(error: unknown, ...codes: string[]): error is ChaingateError {
  return error instanceof ChaingateError && codes.includes(error.code);
}
