/**
 * The bus through faults, on a nats-server of the test's own: restarts and crashes of NATS, a
 * consumer deleted under a running loop, handlers slower than the ack deadline, poison messages.
 */
import { transferMatched, type EventPayload } from "@chaingate/contracts";
import { ChaingateError } from "@chaingate/errors";
import { integrationTest } from "@chaingate/testing/fixtures";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { connectBus, type Bus } from "./index.ts";
import { sampleTransfer } from "./testing/sample-transfer.ts";

const warnings: string[] = [];
const logger = { info: () => {}, warn: (_fields: object, message: string) => warnings.push(message), error: () => {} };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

function transfer(webhookId: number): EventPayload<typeof transferMatched> {
  return sampleTransfer({ event_id: `evt-${webhookId}`, webhook_id: webhookId });
}

/** Publishes, retrying while NATS is still coming back. */
async function publishEventually(busConnection: Bus, event: EventPayload<typeof transferMatched>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await busConnection.publish(transferMatched, event);
      return;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const it = integrationTest.extend<{
  /** A connection to the file's own nats-server (`privateNats`), with `transfer.matched`'s stream. */
  busConnection: Bus;
}>({
  busConnection: [
    async ({ privateNats }, use) => {
      const connection = await connectBus({ url: privateNats.url, name: "bus-faults", logger });
      try {
        await connection.ensureStreams([transferMatched]);
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});

// Rejections nobody handled while the bus goes through the faults are collected: the tests expect none.
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("bus through NATS faults", () => {
  it("keeps consuming across a NATS restart and a kill -9: every event handled at least once, repeats only of the same events", async ({
    busConnection,
    privateNats,
  }) => {
    const handled: number[] = [];
    const consumption = await busConnection.consume(transferMatched, {
      durable: "restarts",
      handle: async (p) => void handled.push(p.webhook_id),
    });
    await publishEventually(busConnection, transfer(1));
    await expect.poll(() => handled).toEqual([1]);

    await privateNats.restart();
    await publishEventually(busConnection, transfer(2));
    await expect.poll(() => handled.includes(2), { timeout: 20_000 }).toBe(true);

    await privateNats.kill();
    await privateNats.start();
    await publishEventually(busConnection, transfer(3));
    await expect.poll(() => handled.includes(3), { timeout: 20_000 }).toBe(true);
    // An ack in flight when the server stops, or not yet synced when it crashes, is lost: the same
    // event comes again (at least once), and subscribers recognise it by its event id.
    expect(new Set(handled)).toEqual(new Set([1, 2, 3]));
    await consumption.stop();
    expect(unhandled).toEqual([]);
  });

  it("resubscribes when its consumer is deleted under the loop, without an unhandled rejection", async ({ busConnection }) => {
    const handled: number[] = [];
    const consumption = await busConnection.consume(transferMatched, {
      durable: "deleted",
      handle: async (p) => void handled.push(p.webhook_id),
    });
    await busConnection.admin.deleteConsumer(transferMatched, "deleted");
    await expect.poll(() => warnings.some((w) => /resubscribing/.test(w)), { timeout: 30_000 }).toBe(true);
    await publishEventually(busConnection, transfer(4));
    await expect.poll(() => handled.includes(4), { timeout: 20_000 }).toBe(true);
    await consumption.stop();
    expect(unhandled).toEqual([]);
  });

  it("a handler slower than the ack deadline is not redelivered meanwhile (it reports working)", async ({ busConnection }) => {
    await publishEventually(busConnection, transfer(5));
    let calls = 0;
    const consumption = await busConnection.consume(transferMatched, {
      durable: "slow",
      ackWaitMs: 1_000,
      filterSubject: "transfer.matched.btc",
      handle: async (p) => {
        if (p.webhook_id !== 5) return;
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 3_500));
      },
    });
    await expect.poll(() => calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(calls).toBe(1);
    const info = await busConnection.admin.consumerInfo(transferMatched, "slow");
    expect(info.num_redelivered).toBe(0);
    expect(info.num_ack_pending).toBe(0);
    await consumption.stop();
  });

  it("terminates a message whose handling can never succeed: never delivered again, nothing left pending", async ({ busConnection }) => {
    const poison = transfer(6);
    await publishEventually(busConnection, poison);
    let attempts = 0;
    const consumption = await busConnection.consume(transferMatched, {
      durable: "poison",
      handle: async (p) => {
        if (p.webhook_id !== 6) return;
        attempts++;
        throw new ChaingateError("bad_event", "cannot ever work", { retryable: false });
      },
    });
    await expect.poll(() => attempts).toBe(1);
    // A nak would bring it back after 1 s (then 2 s, ...): wait well past that.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(attempts).toBe(1);
    const info = await busConnection.admin.consumerInfo(transferMatched, "poison");
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_redelivered).toBe(0);
    await consumption.stop();
  });
});
