/**
 * The public API as the console calls it: the typed client generated from the OpenAPI document
 * (@chaingate/api-client's `paths`), same origin. The API key goes in `Authorization: Bearer`
 * (the spec's personal-access-token path), so the console's own browsing is not counted in the
 * account's usage statistics, which count the X-API-Key path only.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "@chaingate/api-client";
import { session } from "./session.ts";

export type Schemas = components["schemas"];

export const api = createClient<paths>({ baseUrl: location.origin, headers: { accept: "application/json" } });
api.use({
  onRequest({ request }) {
    const operatorPath = new URL(request.url).pathname.startsWith("/api/v1/operator/");
    const credential = operatorPath ? session.operatorToken() : session.apiKey();
    if (credential)
      request.headers.set(operatorPath ? "x-operator-token" : "authorization", operatorPath ? credential : `Bearer ${credential}`);
    return request;
  },
});

/** An answer other than 2xx, with the message and field errors of whichever spec shape it came in. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly fieldErrors: Record<string, string[]>;
  constructor(status: number, message: string, fieldErrors: Record<string, string[]> = {}) {
    super(message);
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

/** Listeners told when a request is refused for its credential (the session is over). */
const onUnauthorized = new Set<(error: ApiError) => void>();
export function whenUnauthorized(listener: (error: ApiError) => void): () => void {
  onUnauthorized.add(listener);
  return () => onUnauthorized.delete(listener);
}

function errorOf(status: number, body: unknown): ApiError {
  const shape = (body ?? {}) as { message?: unknown; error?: unknown; errors?: unknown };
  const fieldErrors = shape.errors && typeof shape.errors === "object" ? (shape.errors as Record<string, string[]>) : {};
  const nested = typeof shape.error === "object" && shape.error ? (shape.error as { message?: unknown }).message : shape.error;
  const message =
    [shape.message, nested, Object.values(fieldErrors).flat()[0]].find((m): m is string => typeof m === "string") ??
    `The request failed (HTTP ${status}).`;
  return new ApiError(status, message, fieldErrors);
}

/** The answer's data, or an ApiError; a 401 also ends the session (listeners decide what to show). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let outcome;
  try {
    outcome = await call;
  } catch {
    throw new ApiError(0, "The gateway could not be reached. Check the connection and try again.");
  }
  const { data, error, response } = outcome;
  if (response.ok) return data as T;
  const failure = errorOf(response.status, error);
  if (response.status === 401) for (const listener of onUnauthorized) listener(failure);
  throw failure;
}
