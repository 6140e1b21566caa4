import { ChaingateError } from "./chaingate-error.ts";

/** Field-by-field messages, as the spec's 422 `errors` map: `{<field>: [messages]}`. */
export type FieldErrors = Record<string, string[]>;

/** A request that failed validation; rendered as 422 `{message, errors}`. */
export class ValidationError extends ChaingateError {
  override name = "ValidationError";
  readonly fieldErrors: FieldErrors;

  constructor(fieldErrors: FieldErrors) {
    // The same input fails the same way on every try.
    super("validation_failed", summarizeFieldErrors(fieldErrors), { retryable: false });
    this.fieldErrors = fieldErrors;
  }
}

/** `<first error> (and N more errors)`, the spec's 422 summary. */
export function summarizeFieldErrors(fieldErrors: FieldErrors): string {
  const messages = Object.values(fieldErrors).flat();
  const [first = "The given data was invalid."] = messages;
  const more = messages.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more ${more === 1 ? "error" : "errors"})`;
}
