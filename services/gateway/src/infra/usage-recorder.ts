/**
 * Usage statistics (per key, per day, per endpoint group), counted in memory on the request path
 * and written by a timer in one upsert, so a request never waits for the database. Counts that
 * fail to write are kept for the next flush.
 */
import { sql, type Kysely } from "kysely";
import type { GatewayDatabase } from "./database-schema.ts";

export const DEFAULT_USAGE_FLUSH_INTERVAL_MS = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

// record() runs on every request: the day's label is formatted once a day, not per call.
let cachedDay = { start: 0, label: "" };
function utcDay(nowMs: number): string {
  if (nowMs < cachedDay.start || nowMs >= cachedDay.start + DAY_MS) {
    const start = nowMs - (nowMs % DAY_MS);
    cachedDay = { start, label: new Date(start).toISOString().slice(0, 10) };
  }
  return cachedDay.label;
}

export interface UsageRecorder {
  record(keyId: number, group: string, nowMs?: number): void;
  /** Writes what is pending now (also called by the timer and on shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageRecorder(
  db: Kysely<GatewayDatabase>,
  options: { flushIntervalMs?: number; onFlushError?(error: unknown): void } = {},
): UsageRecorder {
  let pending = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();

  async function writeBatch(batch: Map<string, number>): Promise<void> {
    const rows = [...batch].map(([bucket, count]) => {
      const [keyId, day, group] = bucket.split("|") as [string, string, string];
      return { api_key_id: Number(keyId), day, endpoint_group: group, request_count: count };
    });
    await db
      .insertInto("api_key_usage")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["api_key_id", "day", "endpoint_group"]).doUpdateSet({
          request_count: sql`api_key_usage.request_count + excluded.request_count`,
        }),
      )
      .execute();
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await writeBatch(batch);
      } catch (error) {
        for (const [bucket, count] of batch) pending.set(bucket, (pending.get(bucket) ?? 0) + count);
        options.onFlushError?.(error);
      }
    });
    return flushing;
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? DEFAULT_USAGE_FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    record(keyId, group, nowMs = Date.now()) {
      const bucket = `${keyId}|${utcDay(nowMs)}|${group}`;
      pending.set(bucket, (pending.get(bucket) ?? 0) + 1);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
