/** Ways to run `followChain` over a fake chain in unit tests: until a condition, until stopped, or until a crash. */
import { silentLogger } from "@chaingate/testing";
import { expect, vi } from "vitest";
import { followChain } from "../domain/follow-chain.ts";
import type { BitcoinBlock } from "../domain/match-bitcoin-block.ts";
import { WatchIndex, type WatchedWebhook } from "../domain/watch-index.ts";
import { recordingSink } from "./fake-chain.ts";
import { createMemoryFollowerStore } from "./memory-follower-store.ts";

type FollowOptions = Omit<Parameters<typeof followChain<BitcoinBlock>>[0], "signal" | "logger">;

/** Runs a follower polling every 5 ms until `done()` (or 5 s), then stops it. */
export async function runUntil(
  options: Parameters<typeof followChain<BitcoinBlock>>[0] extends infer O ? Omit<O, "signal" | "logger"> : never,
  done: () => boolean,
) {
  const controller = new AbortController();
  const running = followChain({ ...options, signal: controller.signal, logger: silentLogger, pollIntervalMs: 5 } as Parameters<
    typeof followChain<BitcoinBlock>
  >[0]);
  const deadline = Date.now() + 5_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  await running;
}

/** A follower running until stop(), polling every 5 ms. */
export function follow(options: FollowOptions) {
  const controller = new AbortController();
  const running = followChain({ pollIntervalMs: 5, ...options, signal: controller.signal, logger: silentLogger });
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}

/** A process that dies after publishing a batch's transfers and before storing its blocks. */
export async function publishThenDie(options: FollowOptions, published: () => boolean) {
  const store = { ...options.store, commitBlocks: () => Promise.reject(new Error("killed before the commit")) };
  const following = follow({ ...options, store });
  await vi.waitFor(() => expect(published()).toBe(true));
  await following.stop();
}

/** Webhook 1 on BTC, active, version 1, watching `addresses`. */
export const watching = (addresses: string[], extra: Partial<WatchedWebhook> = {}): WatchedWebhook => ({
  webhookId: 1,
  coin: "BTC",
  addresses,
  isActive: true,
  deleted: false,
  version: 1,
  ...extra,
});

/** After the genesis block: an index where webhook 1 watches alice, a store and a recording sink. */
export function aliceWatched(mine: () => void) {
  mine();
  const index = new WatchIndex();
  index.apply(watching(["alice"]));
  return { index, store: createMemoryFollowerStore(), ...recordingSink() };
}
