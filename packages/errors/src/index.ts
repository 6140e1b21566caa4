export { ChaingateError, hasErrorCode, isPermanentFailure, type ChaingateErrorOptions } from "./chaingate-error.ts";
export { ValidationError, summarizeFieldErrors, type FieldErrors } from "./validation-error.ts";
