import type { Coin } from "@chaingate/contracts";
import { describe, expect, it } from "vitest";
import { createChainGuard, type ChainGuardOptions, type ChainState, type ChainStateStore, type FollowerStatus } from "./chain-guard.ts";
import { ReorgTooDeepError } from "./scanner-errors.ts";

/** The chain_state table and the kept blocks in memory, as the Postgres store keeps them. */
function memoryStore(initial: ChainState & { kept?: { height: number; hash: string } } = {}) {
  let requested = 0;
  let applied = 0;
  let from: number | undefined;
  let { identity, startHeight } = initial;
  let kept = initial.kept;
  const store: ChainStateStore = {
    async read() {
      const state: ChainState = {};
      if (identity !== undefined) state.identity = identity;
      if (startHeight !== undefined) state.startHeight = startHeight;
      if (requested > applied) state.pendingReset = { seq: requested, ...(from === undefined ? {} : { from }) };
      return state;
    },
    async adoptIdentity(_coin: Coin, value: string) {
      identity ??= value;
    },
    async applyReset(_coin, seq, value, start) {
      identity = value;
      startHeight = start;
      applied = seq;
      kept = undefined;
    },
    async requestReset(_coin, height) {
      requested++;
      from = height;
    },
    async lowestKept() {
      return kept;
    },
  };
  return { store, identity: () => identity, kept: (value: { height: number; hash: string }) => (kept = value) };
}

/** A node whose identity the test changes; an expected identity refuses it as the client's endpoint check does. */
function fakeNode(identity: string) {
  let current = identity;
  let expected: string | undefined;
  return {
    node: {
      identity: async () => {
        if (expected !== undefined && current !== expected) throw new Error("every URL refused");
        return current;
      },
      expect: (value: string | undefined) => void (expected = value),
      refusals: () =>
        expected !== undefined && current !== expected ? [{ url: "http://node", reason: `serves ${current}, not ${expected}` }] : [],
    },
    serve: (value: string) => void (current = value),
  };
}

const logger = () => {
  const lines: string[] = [];
  return {
    lines,
    info: (_: object, m: string) => void lines.push(m),
    warn: (_: object, m: string) => void lines.push(m),
    error: (_: object, m: string) => void lines.push(m),
  };
};

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

function guardOf(options: Partial<ChainGuardOptions> & Pick<ChainGuardOptions, "store" | "node">) {
  const states: FollowerStatus[] = [];
  const log = logger();
  const guard = createChainGuard({
    coin: "ETH",
    source: { tipHeight: async () => 50, hashAt: async () => "0xnode" },
    logger: log,
    resetPollMs: 5,
    stoppedRetryMs: 10_000,
    onState: (status) => states.push(status),
    ...options,
  });
  return { guard, states, log };
}

describe("createChainGuard", () => {
  it("adopts the node's identity at the first start and follows from the configured start", async () => {
    const state = memoryStore();
    const { guard } = guardOf({ store: state.store, node: fakeNode("chain id 1, genesis 0xa").node });
    const stop = new AbortController();
    const starts: Array<number | undefined> = [];
    await guard.run(stop.signal, async (start) => void (starts.push(start), stop.abort()));
    expect(state.identity()).toBe("chain id 1, genesis 0xa");
    expect(starts).toEqual([undefined]);
  });

  it("stops on a node of another chain with the fix in the log, and follows it from the tip after an operator reset", async () => {
    const state = memoryStore({ identity: "chain id 1, genesis 0xa" });
    const { guard, log } = guardOf({ store: state.store, node: fakeNode("chain id 1, genesis 0xb").node });
    const stop = new AbortController();
    const starts: Array<number | undefined> = [];
    const running = guard.run(stop.signal, async (start) => void (starts.push(start), stop.abort()));
    await until(() => guard.status().state === "stopped_wrong_chain");
    expect(guard.status().reason).toContain("serves chain id 1, genesis 0xb, not chain id 1, genesis 0xa");
    expect(log.lines.join("\n")).toContain("Fix: point the ETH node URL at a node of the chain this scanner follows, or");
    expect(log.lines.join("\n")).toContain("pnpm --silent scanner-admin reset --chain ETH --from tip");
    expect(starts).toEqual([]);
    await state.store.requestReset("ETH", undefined);
    await running;
    expect(starts).toEqual([50]);
    expect(state.identity()).toBe("chain id 1, genesis 0xb");
  });

  it("follows again by itself when the node serves the right chain again", async () => {
    const state = memoryStore({ identity: "genesis 0xa" });
    const node = fakeNode("genesis 0xb");
    const { guard } = guardOf({ store: state.store, node: node.node });
    const stop = new AbortController();
    const running = guard.run(stop.signal, async () => void stop.abort());
    await until(() => guard.status().state === "stopped_wrong_chain");
    node.serve("genesis 0xa");
    await running;
    expect(state.identity()).toBe("genesis 0xa");
  });

  it("after a reorg below the window, follows again by itself once the node has the kept blocks again", async () => {
    const state = memoryStore({ identity: "genesis 0xa", kept: { height: 10, hash: "0xours" } });
    let nodeHash = "0xother";
    const { guard, states } = guardOf({
      store: state.store,
      node: fakeNode("genesis 0xa").node,
      source: { tipHeight: async () => 50, hashAt: async () => nodeHash },
    });
    const stop = new AbortController();
    let runs = 0;
    const running = guard.run(stop.signal, async () => {
      if (++runs === 1) throw new ReorgTooDeepError("ETH", 10, 128);
      stop.abort();
    });
    await until(() => guard.status().state === "stopped_reorg_too_deep");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(1);
    nodeHash = "0xours";
    await running;
    expect(runs).toBe(2);
    expect(states.map((status) => status.state)).toEqual(["following", "stopped_reorg_too_deep", "following"]);
  });

  it("stops on a reorg below the window until a reset, which may start from a height", async () => {
    const state = memoryStore({ identity: "genesis 0xa", kept: { height: 10, hash: "0xold" } });
    const { guard, log } = guardOf({ store: state.store, node: fakeNode("genesis 0xa").node });
    const stop = new AbortController();
    const starts: Array<number | undefined> = [];
    const running = guard.run(stop.signal, async (start) => {
      starts.push(start);
      if (starts.length === 1) throw new ReorgTooDeepError("ETH", 40, 128);
      stop.abort();
    });
    await until(() => guard.status().state === "stopped_reorg_too_deep");
    expect(log.lines.join("\n")).toContain("reset --chain ETH --from tip");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(starts).toEqual([undefined]);
    await state.store.requestReset("ETH", 30);
    await running;
    expect(starts).toEqual([undefined, 30]);
  });

  it("dev (resetStaleChain): a new chain, a chain without the kept blocks or a deep reorg is reset to the tip, logged", async () => {
    const state = memoryStore({ identity: "genesis 0xa", kept: { height: 10, hash: "0xold" } });
    const { guard, log } = guardOf({ store: state.store, node: fakeNode("genesis 0xa").node, resetStaleChain: true });
    const stop = new AbortController();
    const starts: Array<number | undefined> = [];
    await guard.run(stop.signal, async (start) => void (starts.push(start), stop.abort()));
    expect(starts).toEqual([50]);
    expect(log.lines.join("\n")).toContain(
      "ETH: the node has none of the kept blocks (a dev chain started fresh); resetting to the node's tip (SCANNER_RESET_STALE_CHAINS, dev only)",
    );
    expect(guard.status().state).toBe("following");
  });

  it("reports a node it cannot read as waiting, and retries", async () => {
    const state = memoryStore();
    let calls = 0;
    const node = {
      identity: async () => (++calls < 3 ? Promise.reject(new Error("ECONNREFUSED")) : "genesis 0xa"),
      expect: () => {},
      refusals: () => [],
    };
    const { guard, states } = guardOf({ store: state.store, node });
    const stop = new AbortController();
    await guard.run(stop.signal, async () => void stop.abort());
    expect(states.map((status) => status.state)).toEqual(["waiting", "following"]);
  });
});
