import { createLogger } from "@chaingate/logger";
import { afterEach, describe, expect, it } from "vitest";
import { startOutboxRelay, type OutboxRelay } from "./outbox-relay.ts";

const logger = createLogger({ service: "test", level: "silent" });
const relays: OutboxRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
});

/** An outbox of `rows` queued rows, published in batches of `batchSize` to `published`. */
function outbox(rows: number, batchSize: number) {
  const state = { queued: rows, published: [] as number[], failNext: 0 };
  return {
    state,
    async relayBatch(publisher: { publish(row: number): void }) {
      if (state.failNext > 0) {
        state.failNext--;
        throw new Error("NATS briefly down");
      }
      const batch = Math.min(batchSize, state.queued);
      for (let n = 0; n < batch; n++) publisher.publish(rows - state.queued + n);
      state.queued -= batch;
      return { published: batch, more: batch === batchSize };
    },
  };
}

describe("startOutboxRelay", () => {
  it("publishes every queued row, batch after batch, and drain() says how many", async () => {
    const rows = outbox(7, 3);
    const publisher = { publish: (row: number) => void rows.state.published.push(row) };
    const relay = startOutboxRelay({
      name: "test relay",
      logger,
      publisher: async () => publisher,
      relayBatch: rows.relayBatch,
      idleMs: 60_000,
    });
    relays.push(relay);
    await expect.poll(() => rows.state.published).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await relay.drain()).toBe(0);
  });

  it("keeps the rows while publishing fails, retries with the back-off, and catches up", async () => {
    const rows = outbox(2, 10);
    rows.state.failNext = 2;
    const publisher = { publish: (row: number) => void rows.state.published.push(row) };
    const started = Date.now();
    relays.push(
      startOutboxRelay({
        name: "test relay",
        logger,
        publisher: async () => publisher,
        relayBatch: rows.relayBatch,
        retry: { firstMs: 50, maxMs: 100 },
        idleMs: 60_000,
      }),
    );
    await expect.poll(() => rows.state.published).toEqual([0, 1]);
    // Two failures: waits of 50 and 100 ms before the round that passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("waits for the bus: a publisher that cannot be had leaves the rows queued", async () => {
    const rows = outbox(1, 10);
    let connected = false;
    const publisher = { publish: (row: number) => void rows.state.published.push(row) };
    const relay = startOutboxRelay({
      name: "test relay",
      logger,
      publisher: async () => (connected ? publisher : Promise.reject(new Error("not connected yet"))),
      relayBatch: rows.relayBatch,
      retry: { firstMs: 20, maxMs: 20 },
    });
    relays.push(relay);
    await expect(relay.drain()).rejects.toThrow("not connected yet");
    expect(rows.state.queued).toBe(1);
    connected = true;
    await expect.poll(() => rows.state.published).toEqual([0]);
  });

  it("wake() starts a round at once instead of after the idle poll", async () => {
    const rows = outbox(1, 10);
    rows.state.queued = 0;
    const publisher = { publish: (row: number) => void rows.state.published.push(row) };
    const relay = startOutboxRelay({
      name: "test relay",
      logger,
      publisher: async () => publisher,
      relayBatch: rows.relayBatch,
      idleMs: 60_000,
    });
    relays.push(relay);
    await new Promise((resolve) => setTimeout(resolve, 50));
    rows.state.queued = 1;
    relay.wake();
    await expect.poll(() => rows.state.published, { timeout: 1_000 }).toEqual([0]);
  });
});
