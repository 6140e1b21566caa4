/**
 * Coverage heartbeats by the clock (issue #30, `heartbeat_seconds`): at each tick, every webhook
 * whose heartbeat is due gets a numbered `coverage` event for the newest block the scanner processed
 * on its chain (`processed_tips`), also when no block came since its last one, so a subscriber that
 * hears nothing for longer than its period knows something is wrong, not that the chain was quiet.
 *
 * Why it covers what it says: a tip is written when its `block.processed` arrives, which the scanner
 * publishes after the block's transfers, and the events are stored as store-coverage-events.ts
 * says, at the tick (after the tips were read), so every transfer up to the tip's
 * `confirmed_height` has a lower sequence. Replicas each tick; the event id names the period, so one
 * period's event is stored once per webhook.
 */
import type { Bus } from "@chaingate/bus";
import type { Coin } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { startBackgroundLoop } from "@chaingate/service-kit";
import { sql, type Kysely } from "kysely";
import { storeCoverageEvents } from "../consumers/store-coverage-events.ts";
import { clockCoverageEventId, coverageEventBody } from "../domain/coverage-heartbeats.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";

/** How often due heartbeats are looked for (the shortest period is 10 s). */
export const CLOCK_HEARTBEAT_TICK_MS = 1_000;
/** Due heartbeats handled per round; more are handled in the next round at once. */
const BATCH = 500;

export interface ClockHeartbeatsOptions {
  db: Kysely<DeliveryDatabase>;
  bus: () => Promise<Pick<Bus, "waitUntilConsumed">>;
  logger: Logger;
  onJobsQueued: () => void;
  tickMs?: number;
}

interface DueHeartbeat {
  id: number;
  coin: Coin;
  confirmations: number;
  heartbeat_seconds: number;
  /** The current period: the database's epoch second over `heartbeat_seconds`, rounded down. */
  period: string;
  chain: string | null;
  height: string;
  hash: string;
  block_time: Date;
}

export function startClockHeartbeats({ db, bus, logger, onJobsQueued, tickMs = CLOCK_HEARTBEAT_TICK_MS }: ClockHeartbeatsOptions) {
  const loop = startBackgroundLoop({
    name: "clock heartbeats",
    logger,
    round: async () => {
      const due = await dueHeartbeats(db);
      if (!due.length) return false;
      // A failure (the transfer consumer too slow) is retried at a later tick.
      const queued = await storeCoverageEvents(db, await bus(), due.map(coverageEvent), async (trx) => {
        await sql`
          update webhooks w set heartbeat_due_at = to_timestamp((d.period + 1) * w.heartbeat_seconds)
            from unnest(${due.map((d) => d.id)}::bigint[], ${due.map((d) => d.period)}::bigint[], ${due.map((d) => d.heartbeat_seconds)}::int[])
              as d(id, period, heartbeat_seconds)
           where w.id = d.id and w.heartbeat_seconds = d.heartbeat_seconds`.execute(trx);
      });
      if (queued) onJobsQueued();
      return due.length === BATCH;
    },
    idleMs: tickMs,
    retry: { firstMs: tickMs, maxMs: 30_000 },
  });
  return { stop: loop.stop };
}

/** Webhooks whose clock heartbeat is due, with the tip of their chain (none before a first block). */
async function dueHeartbeats(db: Kysely<DeliveryDatabase>): Promise<DueHeartbeat[]> {
  const { rows } = await sql<DueHeartbeat>`
    select w.id, w.coin, w.confirmations, w.heartbeat_seconds,
           floor(extract(epoch from now()) / w.heartbeat_seconds)::bigint as period,
           t.chain, t.height, t.hash, t.block_time
      from webhooks w join processed_tips t on t.coin = w.coin
     where w.heartbeat_seconds is not null and w.deleted_at is null
       and (w.heartbeat_due_at is null or w.heartbeat_due_at <= now())
     order by w.id limit ${BATCH}`.execute(db);
  return rows;
}

function coverageEvent(due: DueHeartbeat) {
  const webhookId = Number(due.id);
  const block = {
    coin: due.coin,
    chain: due.chain ?? undefined,
    height: Number(due.height),
    hash: due.hash,
    time: due.block_time.toISOString(),
  };
  return {
    webhookId,
    body: coverageEventBody(webhookId, block, due.confirmations, clockCoverageEventId(webhookId, due.coin, Number(due.period))),
  };
}
