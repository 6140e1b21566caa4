/**
 * What the registry's tests (http/webhook-endpoints, http/webhook-watch-feed) call it with: sample
 * inputs, two accounts, and calls at the service's internal edge as the gateway makes them.
 */
import { accountSequence, type InternalEdge, type TestDatabase } from "@chaingate/testing";
import { callAtEdge } from "./call-at-edge.ts";
import type { WatchFeedObserver } from "./watch-feed-observer.ts";

/** A timestamp as the registry writes it (ISO 8601, milliseconds, UTC). */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A webhook URL on a public address (the registry refuses private ones). */
export const URL_OK = "http://93.184.216.34/hook";
export const BTC = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
export const ETH = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** The next account of the test file (1, 2, …); alice and bob are the first two. */
export const newAccount = accountSequence();
export const alice = newAccount();
export const bob = newAccount();

export interface RegistryCall {
  status: number;
  body: Record<string, unknown> & { data?: Record<string, unknown> & Array<Record<string, unknown>> };
}

/** One call at the internal edge as the account `as`. */
export const call = (edge: InternalEdge, method: string, path: string, as: { accountId: number }, body?: unknown): Promise<RegistryCall> =>
  callAtEdge<RegistryCall["body"]>(edge, method, path, as.accountId, body);

/** POST /api/v1/webhooks as the account `as`. */
export const create = (edge: InternalEdge, as: { accountId: number }, body: unknown) => call(edge, "POST", "/api/v1/webhooks", as, body);

/** The last `webhook.changed` meta the watch feed holds for a webhook. */
export const latestChange = (observer: WatchFeedObserver, webhookId: number) => observer.stateOf(webhookId).meta;

/** The rows of one table of the delivery's schema. */
export async function countRows(database: TestDatabase, table: string): Promise<number> {
  return Number((await database.query<{ n: string }>(`select count(*) as n from delivery.${table}`))[0]!.n);
}
