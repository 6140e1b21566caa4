/**
 * A typed client of chaingate's /api/v1: openapi-fetch over the generated `paths`, so each call's
 * path, parameters, body and answers are the document's (`client.GET("/api/v1/btc/block/best")`).
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.ts";

export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** The gateway's origin, e.g. `https://chaingate.example.com`. */
  baseUrl: string;
  /** Sent as X-API-Key. */
  apiKey: string;
  /** A fetch of your own (a proxy agent, a test double); default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export function createApiClient({ baseUrl, apiKey, fetch }: ApiClientOptions): ApiClient {
  return createClient<paths>({ baseUrl, headers: { "x-api-key": apiKey }, ...(fetch ? { fetch } : {}) });
}
