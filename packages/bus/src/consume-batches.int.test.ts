/**
 * `consumeBatches` against a real NATS JetStream: waiting messages arrive together (capped), each
 * acked only after its batch is stored, a failed batch comes back, a permanent failure or a
 * broken payload does not, and every event keeps its own publisher's trace.
 */
import { randomBytes } from "node:crypto";
import { context, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { transferMatched, type EventPayload } from "@chaingate/contracts";
import { ChaingateError } from "@chaingate/errors";
import { integrationTest } from "@chaingate/testing/fixtures";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { connectBus, type BatchItem, type Bus, type Consumption } from "./index.ts";
import { sampleTransfer } from "./testing/sample-transfer.ts";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
const exporter = new InMemorySpanExporter();
/** What a test started consuming: stopped after the test. */
const consumptions: Consumption[] = [];
type Item = BatchItem<typeof transferMatched>;

function transfer(webhookId: number, n: number): EventPayload<typeof transferMatched> {
  return sampleTransfer({ event_id: `evt-${webhookId}-${n}`, webhook_id: webhookId, position: n });
}

async function publishMany(busConnection: Bus, webhookId: number, count: number): Promise<string[]> {
  const events = Array.from({ length: count }, (_, n) => transfer(webhookId, n));
  await Promise.all(events.map((event) => busConnection.publish(transferMatched, event)));
  return events.map((event) => event.event_id);
}

const it = integrationTest.extend<{
  /** A connection to the file's bus with `transfer.matched`'s stream, deleted after the file. */
  busConnection: Bus;
}>({
  busConnection: [
    async ({ bus }, use) => {
      const connection = await connectBus({ url: bus.url, name: "batch-test", logger, namespace: bus.namespace });
      try {
        await connection.ensureStreams([transferMatched]);
        await use(connection);
        await connection.admin.deleteStream(transferMatched);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});

// Spans are kept in memory (the trace test reads them), and contexts travel through AsyncLocalStorage as in a service.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterEach(async () => {
  await Promise.all(consumptions.splice(0).map((c) => c.stop()));
});
afterAll(() => {
  trace.disable();
  context.disable();
});

describe("consumeBatches", () => {
  it("hands waiting events over together (at most maxBatch), each once, and acks them after the handler resolved", async ({
    busConnection,
  }) => {
    const published = await publishMany(busConnection, 21, 250);
    const batches: string[][] = [];
    const handle = async (items: Item[]) => {
      // Slow stores: more messages wait while one batch is stored.
      await new Promise((resolve) => setTimeout(resolve, 20));
      batches.push(items.filter((i) => i.payload.webhook_id === 21).map((i) => i.payload.event_id));
    };
    consumptions.push(await busConnection.consumeBatches(transferMatched, { durable: "many", maxBatch: 64, handleBatch: handle }));
    await expect.poll(() => batches.flat().length, { timeout: 10_000 }).toBe(250);
    expect(batches.flat().toSorted()).toEqual(published.toSorted());
    expect(Math.max(...batches.map((b) => b.length))).toBe(64);
    expect(batches.length).toBeLessThanOrEqual(10);
    // Acked: the same durable started again gets nothing more.
    await consumptions.pop()!.stop();
    const again: string[] = [];
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "many",
        handleBatch: async (items) => void again.push(...items.map((i) => i.payload.event_id)),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(again).toEqual([]);
  });

  it("a quiet stream gets each event at once, in a batch of its own", async ({ busConnection }) => {
    const seen: Array<{ size: number; at: number }> = [];
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "quiet",
        filterSubject: "transfer.matched.eth",
        handleBatch: async (items) => void seen.push({ size: items.length, at: Date.now() }),
      }),
    );
    for (let n = 0; n < 3; n++) {
      const sent = Date.now();
      await busConnection.publish(transferMatched, { ...transfer(22, n), coin: "ETH", currency: "ETH" });
      await expect.poll(() => seen.length, { timeout: 5_000, interval: 5 }).toBe(n + 1);
      expect(seen[n]!.size).toBe(1);
      expect(seen[n]!.at - sent).toBeLessThan(500);
    }
  });
});

describe("consumeBatches when the handler fails", () => {
  it("a failed batch is redelivered whole; a non-retryable error terminates; a broken payload is terminated alone", async ({
    busConnection,
  }) => {
    const sub = "transfer.matched.trx";
    await busConnection.admin.publishRaw(sub, JSON.stringify({ nonsense: true }));
    const trx = (n: number) => ({ ...transfer(23, n), coin: "TRX" as const, currency: "TRX" });
    await busConnection.publish(transferMatched, trx(0));
    await busConnection.publish(transferMatched, trx(1));
    const calls: Array<Array<{ id: string; delivery: number }>> = [];
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "flaky",
        filterSubject: sub,
        handleBatch: async (items) => {
          calls.push(items.map((i) => ({ id: i.payload.event_id, delivery: i.info.deliveryCount })));
          if (items.some((i) => i.payload.position === 2)) throw new ChaingateError("bad_event", "cannot ever work", { retryable: false });
          // Every batch holding a first delivery fails: however the two events were pulled (one batch
          // or two under load), each failed batch must come back whole.
          if (items.some((i) => i.info.deliveryCount === 1)) throw new Error("database briefly down");
        },
      }),
    );
    const handled = () => calls.flat();
    await expect.poll(() => handled().length, { timeout: 10_000 }).toBe(4);
    // Both events failed on their first delivery (the broken payload never reached the handler), and both came back once.
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(
      handled()
        .filter((call) => call.delivery === 1)
        .toSorted(byId),
    ).toEqual([
      { id: "evt-23-0", delivery: 1 },
      { id: "evt-23-1", delivery: 1 },
    ]);
    expect(
      handled()
        .filter((call) => call.delivery === 2)
        .toSorted(byId),
    ).toEqual([
      { id: "evt-23-0", delivery: 2 },
      { id: "evt-23-1", delivery: 2 },
    ]);
    // A failed batch comes back whole: every batch of first deliveries is followed by the same events again.
    for (const batch of calls.filter((batch) => batch.every((call) => call.delivery === 1)))
      for (const { id } of batch) expect(handled()).toContainEqual({ id, delivery: 2 });
    await busConnection.publish(transferMatched, trx(2));
    await expect.poll(() => handled().length, { timeout: 5_000 }).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Terminated, not redelivered; nothing else came back either.
    expect(handled()).toHaveLength(5);
    expect(handled()[4]).toEqual({ id: "evt-23-2", delivery: 1 });
  });

  it("an error nobody classified (a ChaingateError without retryable) redelivers the batch: only a non-retryable one terminates", async ({
    busConnection,
  }) => {
    await busConnection.publish(transferMatched, transfer(25, 0));
    const deliveries: number[] = [];
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "unclassified",
        handleBatch: async (items) => {
          const mine = items.filter((i) => i.payload.webhook_id === 25);
          deliveries.push(...mine.map((i) => i.info.deliveryCount));
          if (mine.length && deliveries.length === 1) throw new ChaingateError("lock_timeout", "a row lock timed out");
        },
      }),
    );
    await expect.poll(() => deliveries, { timeout: 10_000 }).toEqual([1, 2]);
  });

  it("a handler can fail one event of a batch: the others are acked and never come back, that one is redelivered", async ({
    busConnection,
  }) => {
    for (let n = 0; n < 3; n++) await busConnection.publish(transferMatched, transfer(26, n));
    const handled: Array<{ position: number | null; delivery: number }> = [];
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "one-fails",
        handleBatch: async (batch) => {
          const items = batch.filter((i) => i.payload.webhook_id === 26);
          handled.push(...items.map((i) => ({ position: i.payload.position, delivery: i.info.deliveryCount })));
          const failing = items.filter((i) => i.payload.position === 1 && i.info.deliveryCount === 1);
          return { failed: failing.map((item) => ({ item, error: new Error("this one address is locked") })) };
        },
      }),
    );
    await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(handled.toSorted((a, b) => a.position! - b.position! || a.delivery - b.delivery)).toEqual([
      { position: 0, delivery: 1 },
      { position: 1, delivery: 1 },
      { position: 1, delivery: 2 },
      { position: 2, delivery: 1 },
    ]);
    const consumer = await busConnection.admin.consumerInfo(transferMatched, "one-fails");
    expect(consumer.num_ack_pending + consumer.num_pending).toBe(0);
  });
});

describe("consumeBatches and traces", () => {
  it("each event continues its own publisher's trace: a consumer span per message, child of the publisher's span", async ({
    busConnection,
  }) => {
    const publishers = [0, 1, 2].map(() => ({
      traceId: randomBytes(16).toString("hex"),
      spanId: randomBytes(8).toString("hex"),
      traceFlags: TraceFlags.SAMPLED,
    }));
    await Promise.all(
      publishers.map((spanContext, n) =>
        context.with(trace.setSpan(context.active(), trace.wrapSpanContext(spanContext)), () =>
          busConnection.publish(transferMatched, { ...transfer(24, n), coin: "ETH", currency: "ETH" }),
        ),
      ),
    );
    const seen = new Map<string, { traceId: string; spanId: string; active: string | undefined }>();
    consumptions.push(
      await busConnection.consumeBatches(transferMatched, {
        durable: "traced",
        filterSubject: "transfer.matched.eth",
        handleBatch: async (items) => {
          for (const item of items.filter((i) => i.payload.webhook_id === 24)) {
            const own = trace.getSpanContext(item.context)!;
            seen.set(item.payload.event_id, {
              traceId: own.traceId,
              spanId: own.spanId,
              active: trace.getActiveSpan()?.spanContext().traceId,
            });
          }
        },
      }),
    );
    await expect.poll(() => seen.size, { timeout: 10_000 }).toBe(3);
    await expect
      .poll(() => exporter.getFinishedSpans().filter((s) => s.name === "transfer.matched process").length, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(3);
    publishers.forEach((publisher, n) => {
      const own = seen.get(`evt-24-${n}`)!;
      expect(own.traceId).toBe(publisher.traceId);
      const span = exporter.getFinishedSpans().find((s) => s.spanContext().spanId === own.spanId)!;
      expect(span.name).toBe("transfer.matched process");
      expect(span.parentSpanContext?.spanId).toBe(publisher.spanId);
    });
  });
});
