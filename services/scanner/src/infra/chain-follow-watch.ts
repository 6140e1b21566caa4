/**
 * Every replica, holder or standby, checks that each chain is followed by somebody: the chain's
 * lease renewed lately (`lease_renewals`), how far the stored cursor is behind the node's tip
 * right now, and how old the newest processed block is (its own timestamp: it grows when the
 * node stops getting blocks, behind its peers, where the lag behind that node's tip stays 0). A
 * chain nobody follows is otherwise invisible: the holder's own metrics freeze at their last values
 * and a standby has none. The check feeds `/readyz` (degraded `chainsFollowed`),
 * `scanner_chain_followed`, `scanner_lag_blocks` and `scanner_head_age_seconds` on every replica.
 */
import type { Coin } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import type { BlockSource } from "../domain/ports.ts";
import type { ScannerDatabase } from "./database-schema.ts";

/** How often the check runs. */
export const FOLLOW_CHECK_INTERVAL_MS = 2_000;

export interface ChainFollowWatchOptions {
  db: Kysely<ScannerDatabase>;
  chains: ReadonlyArray<{ coin: Coin; source: Pick<BlockSource<unknown>, "tipHeight"> }>;
  /** The lease name of a chain (`scanner:BTC`). */
  leaseName(coin: Coin): string;
  /**
   * A lease not renewed this long is unfollowed: the holder's give-up time plus a poll, well under
   * the expiry at which a standby takes over, so the gap shows while it lasts.
   */
  unfollowedAfterMs: number;
  intervalMs?: number;
  logger: Pick<Logger, "error" | "info" | "warn">;
  onChecked(coin: Coin, check: FollowCheck): void;
}

export interface FollowCheck {
  /** Some replica renewed the chain's lease lately. */
  followed: boolean;
  /** Blocks between the newest processed block and the node's tip now; undefined when either cannot be read. */
  lagBlocks: number | undefined;
  /** Seconds since the newest processed block's own timestamp; undefined before the first block. */
  headAgeSeconds: number | undefined;
}

export interface ChainFollowWatch {
  /** Chains no replica follows, with how long their lease has gone unrenewed. */
  unfollowed(): ReadonlyMap<Coin, number>;
  /** Runs one check now (tests). */
  check(): Promise<void>;
  close(): void;
}

export function startChainFollowWatch(options: ChainFollowWatchOptions): ChainFollowWatch {
  const startedAt = Date.now();
  const unfollowed = new Map<Coin, number>();

  async function check(): Promise<void> {
    const rows = await options.db
      .selectFrom("lease_renewals")
      .select(["name", sql<number>`(extract(epoch from now() - renewed_at) * 1000)::float8`.as("silent_ms")])
      .execute();
    const silentByName = new Map(rows.map((row) => [row.name, row.silent_ms]));
    const heads = await newestBlocks();
    await Promise.all(
      options.chains.map(async ({ coin, source }) => {
        // Never renewed: count from this process's start (the whole system may be starting).
        const silentMs = silentByName.get(options.leaseName(coin)) ?? Date.now() - startedAt;
        const followed = silentMs <= options.unfollowedAfterMs;
        if (!followed && !unfollowed.has(coin))
          options.logger.error(
            { coin, silentMs: Math.round(silentMs) },
            "no replica follows this chain: its lease is not being renewed (a standby takes it over after SCANNER_LEASE_EXPIRY_MS)",
          );
        if (followed && unfollowed.has(coin)) options.logger.info({ coin }, "the chain is followed again");
        if (followed) unfollowed.delete(coin);
        else unfollowed.set(coin, silentMs);
        const head = heads.get(coin);
        options.onChecked(coin, {
          followed,
          lagBlocks: head && (await lagBehindTip(head.height, source)),
          headAgeSeconds: head && Math.max(0, (Date.now() - head.timeMs) / 1000),
        });
      }),
    );
  }

  /** Per chain, the newest stored block's height and timestamp. */
  async function newestBlocks(): Promise<Map<Coin, { height: number; timeMs: number }>> {
    const rows = await options.db
      .selectFrom("blocks")
      .select(["coin", "height", "time_ms"])
      .distinctOn("coin")
      .orderBy("coin")
      .orderBy("height", "desc")
      .execute();
    return new Map(rows.map((row) => [row.coin as Coin, { height: Number(row.height), timeMs: Number(row.time_ms) }]));
  }

  /** Blocks between `height` and the node's tip now; undefined when the node cannot be read. */
  async function lagBehindTip(height: number, source: Pick<BlockSource<unknown>, "tipHeight">): Promise<number | undefined> {
    try {
      return Math.max(0, (await source.tipHeight()) - height);
    } catch {
      return undefined; // the node is out: its own checks say so
    }
  }

  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((error: unknown) => options.logger.warn({ err: error }, "could not check whether the chains are followed"))
      .finally(() => (running = false));
  }, options.intervalMs ?? FOLLOW_CHECK_INTERVAL_MS);
  timer.unref();

  return { unfollowed: () => unfollowed, check, close: () => clearInterval(timer) };
}
