/**
 * The dedicated LISTEN connection that evicts cached keys on NOTIFY: connected, probed every
 * `probeIntervalMs` (a NOTIFY sent on that very connection must come back on it within the
 * interval), dropped and reconnected from an empty cache when it fails.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { API_KEYS_CHANNEL } from "../database-schema.ts";
import { clearCaches, evict, type KeyCache } from "./key-cache.ts";

const RECONNECT_DELAY_MS = 1_000;
/** The LISTEN connection's application_name (pg_stat_activity; the tests' proxy recognises it by it). */
export const KEY_LISTENER_APPLICATION_NAME = "chaingate-gateway-key-listener";
/** Payloads starting with this are the listener's own probes, not key changes. */
const PROBE_PAYLOAD_PREFIX = "probe:";

export function connectListener(cache: KeyCache): void {
  if (cache.closed) return;
  const client = new pg.Client({
    connectionString: cache.options.connectionString,
    keepAlive: true,
    application_name: KEY_LISTENER_APPLICATION_NAME,
  });
  cache.listener = client;
  client.on("notification", (message) => {
    const payload = message.payload ?? "";
    if (payload.startsWith(PROBE_PAYLOAD_PREFIX)) {
      if (cache.pendingProbe?.payload === payload) cache.pendingProbe.arrived();
      return;
    }
    if (payload) evict(cache, payload);
    else {
      cache.invalidations++;
      clearCaches(cache);
    }
  });
  client.on("error", (error) => dropListener(cache, client, error));
  client.on("end", () => dropListener(cache, client, new Error("key-change listener connection ended")));
  client
    .connect()
    .then(() => client.query(`LISTEN ${API_KEYS_CHANNEL}`))
    .then(() => {
      if (cache.listener !== client) return;
      // Rows cached before this point may have missed a notification.
      clearCaches(cache);
      cache.invalidations++;
      cache.listening = true;
      cache.probeTimer = setInterval(() => void probe(cache, client), cache.probeIntervalMs);
      cache.probeTimer.unref();
      cache.markReady();
    })
    .catch((error: unknown) => dropListener(cache, client, error));
}

/** A NOTIFY sent on the listener's own connection must come back on it within the interval. */
async function probe(cache: KeyCache, client: pg.Client): Promise<void> {
  if (cache.listener !== client || cache.pendingProbe) return;
  const payload = `${PROBE_PAYLOAD_PREFIX}${randomBytes(8).toString("hex")}`;
  let timer: NodeJS.Timeout | undefined;
  const cameBack = new Promise<boolean>((resolve) => {
    cache.pendingProbe = { payload, arrived: () => resolve(true) };
    timer = setTimeout(() => resolve(false), cache.probeIntervalMs);
  });
  client.query("select pg_notify($1, $2)", [API_KEYS_CHANNEL, payload]).catch(() => {});
  const ok = await cameBack;
  clearTimeout(timer);
  cache.pendingProbe = undefined;
  if (!ok) dropListener(cache, client, new Error(`key-change listener probe got no answer within ${cache.probeIntervalMs} ms`));
}

function dropListener(cache: KeyCache, client: pg.Client, error: unknown): void {
  if (cache.listener !== client) return;
  cache.listener = undefined;
  cache.listening = false;
  clearInterval(cache.probeTimer);
  clearCaches(cache);
  cache.options.onListenError?.(error);
  // A stalled socket would make end() wait for the server: cut it.
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  client.end().catch(() => {});
  if (!cache.closed) setTimeout(() => connectListener(cache), RECONNECT_DELAY_MS).unref();
}

/** Stops the listener for good (the store is closing). */
export async function closeListener(cache: KeyCache): Promise<void> {
  cache.closed = true;
  clearInterval(cache.probeTimer);
  const client = cache.listener;
  cache.listener = undefined;
  cache.listening = false;
  await client?.end().catch(() => {});
}
