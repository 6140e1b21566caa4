/** The JetStream API errors the bus reacts to, recognised by their server error codes. */

function apiErrorCode(error: unknown): number | undefined {
  return (error as { api_error?: { err_code?: number } }).api_error?.err_code;
}

/** 10037: the stream holds no message on that subject. */
export function isNoMessage(error: unknown): boolean {
  return apiErrorCode(error) === 10037;
}

/** 10071: a compare-and-set publish lost (the subject's last sequence moved). */
export function isWrongLastSequence(error: unknown): boolean {
  return apiErrorCode(error) === 10071 || /wrong last sequence/i.test(String((error as Error).message));
}

/** 10059 stream not found, 10014 consumer not found. */
export function isNotFound(error: unknown): boolean {
  const code = apiErrorCode(error);
  return code === 10059 || code === 10014 || /not found/i.test(String((error as Error).message));
}

/** `promise`'s value, or undefined when it failed because the thing asked for does not exist. */
export function unlessMissing<T>(promise: Promise<T>, missing: (error: unknown) => boolean): Promise<T | undefined> {
  return promise.catch((error: unknown) => (missing(error) ? undefined : Promise.reject(error)));
}
