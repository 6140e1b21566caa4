/**
 * Validates a request part with zod and, on failure, throws the spec's 422 ValidationError with
 * Laravel-style messages (`The coin field is required.`), keyed by dotted field path (`addresses.0`).
 * checkRequest hands the field errors back instead, for a handler with checks of its own to run
 * before answering (every invalid field is named in one 422, not the schema's first).
 */
import { ValidationError, type FieldErrors } from "@chaingate/errors";
import type { z } from "zod";

export type CheckedRequest<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors };

export function checkRequest<Schema extends z.ZodType>(schema: Schema, input: unknown): CheckedRequest<z.infer<Schema>> {
  // reportInput: zod 4 leaves `issue.input` out otherwise, and "missing" could not be told from "wrong type".
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".") || "body";
    const isMissing = issue.code === "invalid_type" && issue.input === undefined;
    const message = isMissing ? `The ${field.replaceAll("_", " ")} field is required.` : issue.message;
    (fieldErrors[field] ??= []).push(message);
  }
  return { ok: false, fieldErrors };
}

export function parseRequest<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const checked = checkRequest(schema, input);
  if (!checked.ok) throw new ValidationError(checked.fieldErrors);
  return checked.data;
}
