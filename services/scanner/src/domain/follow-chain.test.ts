import { silentLogger } from "@chaingate/testing";
import { describe, expect, test, vi } from "vitest";
import { createWakeableSleep } from "@chaingate/backoff";
import { followChain } from "./follow-chain.ts";
import { ReorgTooDeepError } from "./scanner-errors.ts";
import type { BitcoinBlock } from "./match-bitcoin-block.ts";
import type { RescanJob } from "./ports.ts";
import { transferEventId } from "./transfer-event.ts";
import { WatchIndex, type WatchedWebhook } from "./watch-index.ts";
import { createMemoryFollowerStore } from "../testing/memory-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "../testing/fake-chain.ts";

async function runUntil(
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
function follow(options: Omit<Parameters<typeof followChain<BitcoinBlock>>[0], "signal" | "logger">) {
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
async function publishThenDie(
  options: Omit<Parameters<typeof followChain<BitcoinBlock>>[0], "signal" | "logger">,
  published: () => boolean,
) {
  const store = { ...options.store, commitBlocks: () => Promise.reject(new Error("killed before the commit")) };
  const following = follow({ ...options, store });
  await vi.waitFor(() => expect(published()).toBe(true));
  await following.stop();
}

/** After the genesis block: an index where webhook 1 watches alice, a store and a recording sink. */
function aliceWatched(mine: () => void) {
  mine();
  const index = new WatchIndex();
  index.apply(watching(["alice"]));
  return { index, store: createMemoryFollowerStore(), ...recordingSink() };
}

const watching = (addresses: string[], extra: Partial<WatchedWebhook> = {}): WatchedWebhook => ({
  webhookId: 1,
  coin: "BTC",
  addresses,
  isActive: true,
  deleted: false,
  version: 1,
  ...extra,
});

describe("following a chain", () => {
  test("starts at the tip, matches from the next block, publishes each block after its matches", async () => {
    const { mine, spec } = fakeChain();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    const index = new WatchIndex();
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const registry: { webhook?: WatchedWebhook } = {};
    const watchFeed = fixedWatchFeed((i) => void (registry.webhook && i.apply(registry.webhook)));
    await runUntil({ chain: spec, index, watchFeed, store, sink }, () => blocks.length === 1);
    expect(blocks.map((b) => b.height)).toEqual([1]);
    registry.webhook = watching(["alice"]);
    mine([
      ["alice", "3"],
      ["bob", "4"],
      ["alice", "0.5"],
    ]);
    await runUntil({ chain: spec, index, watchFeed, store, sink }, () => blocks.length === 2);
    // Blocks 0 and 1 were mined before the webhook existed: nothing for them.
    expect(published.map((e) => [e.type, e.block.height, e.position, e.amount, e.confirmations])).toEqual([
      ["transfer", 2, 0, "3", 1],
      ["transfer", 2, 2, "0.5", 1],
    ]);
    expect(blocks[1]).toMatchObject({ height: 2, hash: "a2", parent_hash: "a1", matched_count: 2, tx_count: 1 });
  });

  test("an N-confirmation webhook is notified once the block is N deep, with its depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 3 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    mine();
    await runUntil(options, () => blocks.length === 3);
    expect(published).toEqual([]);
    mine();
    await runUntil(options, () => blocks.length === 4);
    expect(published.map((e) => [e.block.height, e.confirmations, e.amount])).toEqual([[1, 3, "1"]]);
  });

  test("catching up many blocks in one batch still publishes each pending match once, at its depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    for (let i = 0; i < 5; i++) mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 2 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    await runUntil(
      { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink, startHeight: 0, fetchConcurrency: 3 },
      () => blocks.length === 8,
    );
    expect(published.map((e) => [e.block.height, e.confirmations, e.amount])).toEqual([
      [1, 2, "1"],
      [2, 2, "2"],
    ]);
    expect(blocks.map((b) => b.matched_count)).toEqual([0, 0, 1, 1, 0, 0, 0, 0]);
  });

  test("a reorg reverts what was notified in the removed blocks and follows the new branch", async () => {
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await runUntil(options, () => blocks.length === 3);
    // The node switches to a longer branch from block 1: block 2's payment is gone, block 1's is
    // mined again in the new block 2.
    chain.length = 1;
    mine([], "b");
    mine([["alice", "1"]], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b3"));
    expect(published.map((e) => [e.type, e.block.hash, e.amount])).toEqual([
      ["transfer", "a1", "1"],
      ["transfer", "a2", "2"],
      ["reverted", "a1", "1"],
      ["reverted", "a2", "2"],
      ["transfer", "b2", "1"],
    ]);
    const reverted = published.filter((e) => e.type === "reverted");
    const original = published.find((e) => e.block.hash === "a2")!;
    const revert = reverted.find((e) => e.block.hash === "a2")!;
    expect(revert.event_id).not.toBe(original.event_id);
    expect({ ...revert, event_id: "", type: "" }).toEqual({ ...original, event_id: "", type: "" });
    expect(new Set(published.map((e) => e.event_id)).size).toBe(published.length);
  });

  test("a pending match whose block is reorged away before reaching its depth is never notified, nor reverted", async () => {
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 3 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil(options, () => blocks.length === 2);
    chain.length = 1;
    mine([], "b");
    mine([["alice", "5"]], "b");
    mine([], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b4"));
    expect(published.map((e) => [e.type, e.block.hash, e.amount, e.confirmations])).toEqual([["transfer", "b2", "5", 3]]);
  });

  test("a block processed twice (crash before the cursor was stored) yields the same event ids", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const { sink, published, blocks } = recordingSink();
    const first = createMemoryFollowerStore();
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: first, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: first, sink }, () => blocks.length === 2);
    // A second store that never saw block 1 committed, as after a crash right after publishing.
    const second = createMemoryFollowerStore();
    await second.commitBlocks("BTC", [{ height: 0, hash: "a0", parentHash: null, timeMs: 0, txCount: 1, matchedAtMs: 0 }], [], [], 0);
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: second, sink }, () => blocks.length === 3);
    expect(published).toHaveLength(2);
    expect(published[0]!.event_id).toBe(published[1]!.event_id);
  });

  test("the kept window (reorgWindow) bounds the fork it can undo: within it the follower rewinds, deeper it stops with ReorgTooDeepError", async () => {
    for (const [window, deepEnough] of [
      [8, true],
      [3, false],
    ] as const) {
      const { chain, mine, spec } = fakeChain();
      for (let i = 0; i < 10; i++) mine();
      const index = new WatchIndex();
      const store = createMemoryFollowerStore();
      const { sink, blocks } = recordingSink();
      const watchFeed = fixedWatchFeed();
      await runUntil({ chain: spec, index, watchFeed, store, sink, startHeight: 0, reorgWindow: window }, () => blocks.length === 10);
      // A competing branch from height 4: the six blocks above it leave the best chain.
      chain.length = 4;
      for (let i = 0; i < 8; i++) mine([], "b");
      const controller = new AbortController();
      const following = followChain({
        chain: spec,
        index,
        watchFeed,
        store,
        sink,
        signal: controller.signal,
        logger: silentLogger,
        pollIntervalMs: 5,
        reorgWindow: window,
      });
      if (deepEnough) {
        const deadline = Date.now() + 5_000;
        while (!blocks.some((b) => b.hash === "b11") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort();
        await following;
        expect(blocks.some((b) => b.hash === "b11")).toBe(true);
      } else {
        await expect(following).rejects.toBeInstanceOf(ReorgTooDeepError);
      }
    }
  });
});

describe("following a chain through a lagging node and blocks that come back (issue 16)", () => {
  const noFeed = fixedWatchFeed();

  test("a node whose tip falls below the cursor is waited for: nothing is reverted, and the blocks are processed once it is back", async () => {
    const { mine, spec, view } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    const onNodeBehind = vi.fn();
    const following = follow({ chain: spec, index, watchFeed: noFeed, store: createMemoryFollowerStore(), sink, onNodeBehind });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(3));
    // Failover to a URL two blocks behind: its tip is 0, it has no block 1 or 2.
    view.lag = 2;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published.map((e) => e.type)).toEqual(["transfer", "transfer"]);
    expect(onNodeBehind).toHaveBeenCalledWith(2);
    view.lag = 0;
    mine([["alice", "3"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(4));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount])).toEqual([
      ["transfer", 1, "1"],
      ["transfer", 2, "2"],
      ["transfer", 3, "3"],
    ]);
    expect(onNodeBehind).toHaveBeenLastCalledWith(null);
  });

  test("a provider whose tip runs ahead of its blocks (backends a block apart) never causes a revert or a busy loop", async () => {
    const { mine, spec, view } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    let tipCalls = 0;
    const tipHeight = spec.source.tipHeight;
    spec.source.tipHeight = () => (tipCalls++, tipHeight());
    const following = follow({ chain: spec, index, watchFeed: noFeed, store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    view.blocksLag = 1;
    mine([["alice", "1"]]);
    const before = tipCalls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Polling every 5 ms: about 60 passes in 300 ms; a busy loop makes thousands.
    expect(tipCalls - before).toBeLessThan(200);
    expect(blocks).toHaveLength(1);
    view.blocksLag = 0;
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    await following.stop();
    expect(published.map((e) => [e.type, e.amount])).toEqual([["transfer", "1"]]);
  });

  test("a missing block met while walking back to the fork is waited for, so only what really left the chain is reverted", async () => {
    const { chain, mine, spec, view } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    const options = { chain: spec, index, watchFeed: noFeed, store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine();
    mine([["alice", "2"]]);
    mine([["alice", "3"]]);
    await runUntil(options, () => blocks.length === 4);
    // Block 3 is replaced; block 2 stays, but the provider answers "no block 2" once during the walk.
    chain.length = 3;
    mine([], "b");
    mine([], "b");
    view.missing.add(2);
    await runUntil(options, () => blocks.some((b) => b.hash === "b4"));
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a2"],
      ["transfer", "a3"],
      ["reverted", "a3"],
    ]);
  });

  test("a node that stays behind longer than the setting is failed over", async () => {
    const { mine, spec, view } = fakeChain();
    mine();
    mine();
    const store = createMemoryFollowerStore();
    const { sink, blocks } = recordingSink();
    const demoteNode = vi.fn((_reason: string) => "http://lagging.example:8332");
    const options = { chain: { ...spec, demoteNode }, index: new WatchIndex(), watchFeed: noFeed, store, sink, nodeBehindFailoverMs: 30 };
    await runUntil(options, () => blocks.length === 1);
    view.lag = 1;
    await runUntil(options, () => demoteNode.mock.calls.length > 0);
    expect(demoteNode.mock.calls[0]![0]).toMatch(/behind the processed block 1/);
  });

  test("a block that leaves the best chain and comes back (A→B→A) is notified again, under a new generation and event id", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    const options = { chain: spec, index, watchFeed: noFeed, store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil(options, () => blocks.length === 2);
    const a = chain.slice(0, 2);
    // invalidateblock a1: a longer branch without the payment.
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b2"));
    // reconsiderblock a1: the same block a1 back, on a branch that is longer again.
    chain.length = 0;
    chain.push(...a);
    mine();
    mine();
    await runUntil(options, () => blocks.some((b) => b.hash === "a3"));
    expect(published.map((e) => [e.type, e.block.hash, e.generation])).toEqual([
      ["transfer", "a1", 0],
      ["reverted", "a1", 0],
      ["transfer", "a1", 1],
    ]);
    expect(new Set(published.map((e) => e.event_id)).size).toBe(3);
    // Generation 0 keeps the id it always had.
    expect(published[0]!.event_id).toBe(
      transferEventId(
        "transfer",
        {
          transfer: {
            coin: "BTC",
            currency: "BTC",
            from: null,
            to: "alice",
            amount: "1",
            rawAmount: "100000000",
            decimals: 8,
            tokenContract: null,
            txid: "tx-a1",
            position: 0,
            executionStatus: "SUCCESS",
          },
          webhookId: 1,
          watchedAddress: "alice",
          confirmations: 1,
        },
        "a1",
      ),
    );
  });

  test("a transaction reverted and mined again in another block comes under the next generation, so the highest generation is the last word", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    const following = follow({ chain: spec, index, watchFeed: fixedWatchFeed(), store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    mine([["alice", "1"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    // A longer branch in which the same transaction is mined a block later.
    chain.length = 1;
    mine([], "b");
    mine([["alice", "1"]], "b");
    chain[2]!.tx[0]!.txid = "tx-a1";
    mine([], "b");
    await vi.waitFor(() => expect(blocks.some((b) => b.hash === "b3")).toBe(true));
    await following.stop();
    expect(published.map((e) => [e.type, e.txid, e.block.hash, e.generation])).toEqual([
      ["transfer", "tx-a1", "a1", 0],
      ["reverted", "tx-a1", "a1", 0],
      ["transfer", "tx-a1", "b2", 1],
    ]);
  });

  test("a transfer published just before a crash, for a block then reorged away before it was stored, is reverted by the next follower", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await publishThenDie({ chain: spec, index, watchFeed: noFeed, store, sink }, () => published.length === 1);
    // Meanwhile block 1 leaves the chain.
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.some((b) => b.hash === "b2"));
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a1"],
      ["reverted", "a1"],
    ]);
  });

  test("a transfer published before a crash whose block stays is not reverted, and processing it again publishes the same id", async () => {
    const { mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await publishThenDie({ chain: spec, index, watchFeed: noFeed, store, sink }, () => published.length === 1);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 2);
    expect(published.map((e) => e.type)).toEqual(["transfer", "transfer"]);
    expect(published[0]!.event_id).toBe(published[1]!.event_id);
  });
});

describe("the watch list is never older than the block (issue 16 item 7)", () => {
  const BLOCK_TIME_MS = (height: number) => (1_700_000_000 + height) * 1000;

  test("a block newer than the registry's watermark waits for the feed, then is matched with the address added meanwhile", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    const registry = { watermarkMs: BLOCK_TIME_MS(0), webhook: undefined as WatchedWebhook | undefined };
    const watchFeed = fixedWatchFeed(
      (i) => void (registry.webhook && i.apply(registry.webhook)),
      () => ({ watermarkMs: registry.watermarkMs, rescans: [] }),
    );
    const { sink, published, blocks } = recordingSink();
    const onWatchFeedBehind = vi.fn();
    const following = follow({
      chain: spec,
      index,
      watchFeed,
      store: createMemoryFollowerStore(),
      sink,
      watchGraceMs: 0,
      onWatchFeedBehind,
    });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    // Block 1 pays alice, whom the registry watches from before block 1, but its feed is stalled.
    mine([["alice", "1"]]);
    await vi.waitFor(() => expect(onWatchFeedBehind).toHaveBeenCalledWith(1_000));
    expect(blocks).toHaveLength(1);
    registry.webhook = watching(["alice"]);
    registry.watermarkMs = BLOCK_TIME_MS(1);
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount])).toEqual([["transfer", 1, "1"]]);
    expect(onWatchFeedBehind).toHaveBeenLastCalledWith(null);
  });

  test("before any watermark nothing is matched", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const { sink, blocks } = recordingSink();
    const onWatchFeedBehind = vi.fn();
    const watchFeed = fixedWatchFeed(undefined, () => ({ watermarkMs: undefined, rescans: [] }));
    const following = follow({
      chain: spec,
      index: new WatchIndex(),
      watchFeed,
      store: createMemoryFollowerStore(),
      sink,
      onWatchFeedBehind,
    });
    await vi.waitFor(() => expect(onWatchFeedBehind).toHaveBeenCalledWith(Number.POSITIVE_INFINITY));
    await following.stop();
    expect(blocks).toEqual([]);
  });

  test("an address that reaches the index after blocks were matched without it is rescanned once: kept blocks matched since it became watched, at their depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    const registry = { webhook: undefined as WatchedWebhook | undefined, rescans: [] as RescanJob[] };
    const watchFeed = fixedWatchFeed(
      (i) => void (registry.webhook && i.apply(registry.webhook)),
      () => ({ watermarkMs: Number.POSITIVE_INFINITY, rescans: registry.rescans.filter((job) => !watchFeed.finished.includes(job.id)) }),
    );
    const { sink, published, blocks } = recordingSink();
    const following = follow({ chain: spec, index, watchFeed, store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    const watchedSince = Date.now();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(3));
    expect(published).toEqual([]);
    // Alice was watched from before blocks 1 and 2 were matched, but reaches the scanner only now;
    // an address whose since is later than every match has nothing to rescan.
    registry.webhook = watching(["alice", "bob"]);
    registry.rescans = [
      { id: 7, coin: "BTC", webhookId: 1, addresses: ["alice"], sinceMs: watchedSince },
      { id: 8, coin: "BTC", webhookId: 1, addresses: ["bob"], sinceMs: Date.now() + 60_000 },
    ];
    await vi.waitFor(() => expect(watchFeed.finished).toEqual([7, 8]));
    mine([["alice", "3"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(4));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount, e.confirmations])).toEqual([
      ["transfer", 1, "1", 2],
      ["transfer", 2, "2", 1],
      ["transfer", 3, "3", 1],
    ]);
  });
});

describe("block announcements (issue 19)", () => {
  test("an announcement wakes a follower whose poll is an hour away; a branch announced the same way is rewound by parent hash", async () => {
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const { sink, published, blocks } = recordingSink();
    const wake = createWakeableSleep();
    const following = follow({
      chain: spec,
      index,
      watchFeed: fixedWatchFeed(),
      store: createMemoryFollowerStore(),
      sink,
      wake,
      pollIntervalMs: 3_600_000,
    });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    mine([["alice", "1"]]);
    wake.wake();
    await vi.waitFor(() => expect(blocks.map((b) => b.hash)).toEqual(["a0", "a1"]), { timeout: 1_000 });

    chain.length = 1;
    mine([], "b");
    mine([], "b");
    wake.wake();
    await vi.waitFor(() => expect(blocks.at(-1)?.hash).toBe("b2"), { timeout: 1_000 });
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a1"],
      ["reverted", "a1"],
    ]);
    // Without an announcement nothing more happens before the poll.
    mine([], "b");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(blocks.at(-1)?.hash).toBe("b2");
    await following.stop();
  });

  test("an announced block the node does not serve yet is looked for again shortly, not at the next poll", async () => {
    const { mine, spec, view } = fakeChain();
    mine();
    const { sink, blocks } = recordingSink();
    const wake = createWakeableSleep();
    const following = follow({
      chain: spec,
      index: new WatchIndex(),
      watchFeed: fixedWatchFeed(),
      store: createMemoryFollowerStore(),
      sink,
      wake,
      pollIntervalMs: 3_600_000,
    });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    // Announced by one backend, not yet served by the one the follower reads.
    mine();
    view.lag = 1;
    wake.wake();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(blocks).toHaveLength(1);
    view.lag = 0;
    await vi.waitFor(() => expect(blocks.map((b) => b.hash)).toEqual(["a0", "a1"]), { timeout: 1_000 });
    await following.stop();
  });
});
