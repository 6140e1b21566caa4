import { createWakeableSleep } from "@chaingate/backoff";
import { describe, expect, test, vi } from "vitest";
import { WatchIndex } from "./watch-index.ts";
import { createMemoryFollowerStore } from "../testing/memory-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "../testing/fake-chain.ts";
import { follow, watching } from "../testing/follow-chain-runners.ts";

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
