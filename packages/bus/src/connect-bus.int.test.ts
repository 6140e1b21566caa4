import { randomBytes } from "node:crypto";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { context, trace, TraceFlags } from "@opentelemetry/api";
import { transferMatched, type EventPayload } from "@chaingate/contracts";
import { ChaingateError } from "@chaingate/errors";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectBus, type Bus, type Consumption, type MessageInfo } from "./index.ts";
import { sampleTransfer } from "./testing/sample-transfer.ts";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
const namespace = `t${randomBytes(4).toString("hex")}`;
let bus: Bus;
const consumptions: Consumption[] = [];

const transfer = sampleTransfer;

/** Collects handled messages until `count` arrived. */
function collector(count: number) {
  const seen: { payload: EventPayload<typeof transferMatched>; info: MessageInfo; traceId?: string }[] = [];
  let resolve!: () => void;
  const enough = new Promise<void>((r) => (resolve = r));
  return {
    seen,
    enough,
    record(payload: EventPayload<typeof transferMatched>, info: MessageInfo) {
      seen.push({ payload, info, traceId: trace.getActiveSpan()?.spanContext().traceId });
      if (seen.length >= count) resolve();
    },
  };
}

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  bus = await connectBus({ url: process.env.NATS_URL!, name: "bus-test", logger, namespace });
  await bus.ensureStreams([transferMatched]);
  await bus.ensureStreams([transferMatched]); // idempotent
});
afterEach(async () => {
  await Promise.all(consumptions.splice(0).map((c) => c.stop()));
});
afterAll(async () => {
  await bus.manager.streams.delete(`${namespace}_TRANSFERS`);
  await bus.close();
  context.disable();
});

describe("bus", () => {
  it("drops a republished event as a duplicate (same Nats-Msg-Id) and delivers it once", async () => {
    const event = transfer();
    expect((await bus.publish(transferMatched, event)).duplicate).toBe(false);
    expect((await bus.publish(transferMatched, event)).duplicate).toBe(true);
    const got = collector(1);
    consumptions.push(await bus.consume(transferMatched, { durable: "dedup", handle: async (p, i) => got.record(p, i) }));
    await got.enough;
    await new Promise((r) => setTimeout(r, 300));
    expect(got.seen).toHaveLength(1);
    expect(got.seen[0]?.payload).toEqual(event);
    expect(got.seen[0]?.info.messageId).toBe(`match:BTC:${event.txid}:0:7:${event.event_id}`);
    expect(got.seen[0]?.info.subject).toBe(`${namespace}.transfer.matched.btc`);
  });

  it("refuses to publish a payload that breaks its contract", async () => {
    await expect(bus.publish(transferMatched, transfer({ amount: "1e-8" }))).rejects.toThrow();
  });

  it("carries the publisher's trace context to the consumer", async () => {
    const spanContext = { traceId: randomBytes(16).toString("hex"), spanId: randomBytes(8).toString("hex"), traceFlags: TraceFlags.SAMPLED };
    const event = transfer({ webhook_id: 8 });
    await context.with(trace.setSpan(context.active(), trace.wrapSpanContext(spanContext)), () => bus.publish(transferMatched, event));
    const got = collector(1);
    consumptions.push(
      await bus.consume(transferMatched, {
        durable: "trace",
        filterSubject: "transfer.matched.btc",
        handle: async (p, i) => {
          if (p.webhook_id === 8) got.record(p, i);
        },
      }),
    );
    await got.enough;
    expect(got.seen[0]?.traceId).toBe(spanContext.traceId);
  });

  it("acks only after the handler succeeds: a failed attempt is redelivered, a permanent failure is not", async () => {
    const flaky = transfer({ webhook_id: 9 });
    const poison = transfer({ webhook_id: 10 });
    await bus.publish(transferMatched, flaky);
    await bus.publish(transferMatched, poison);
    const attempts = new Map<number, number>();
    const got = collector(1);
    consumptions.push(
      await bus.consume(transferMatched, {
        durable: "retry",
        handle: async (payload, info) => {
          if (payload.webhook_id !== 9 && payload.webhook_id !== 10) return;
          attempts.set(payload.webhook_id, (attempts.get(payload.webhook_id) ?? 0) + 1);
          if (payload.webhook_id === 10) throw new ChaingateError("bad_event", "cannot ever work");
          if (info.deliveryCount === 1) throw new Error("database briefly down");
          got.record(payload, info);
        },
      }),
    );
    await got.enough;
    expect(got.seen[0]?.info.deliveryCount).toBe(2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(attempts.get(9)).toBe(2);
    expect(attempts.get(10)).toBe(1);
  });

  it("terminates a message whose payload breaks the contract and goes on with the next", async () => {
    await bus.connection.jetstream().publish(`${namespace}.transfer.matched.eth`, JSON.stringify({ nonsense: true }));
    const event = transfer({ coin: "ETH", currency: "ETH", webhook_id: 11 });
    await bus.publish(transferMatched, event);
    const got = collector(1);
    consumptions.push(
      await bus.consume(transferMatched, { durable: "eth", filterSubject: "transfer.matched.eth", handle: async (p, i) => got.record(p, i) }),
    );
    await got.enough;
    expect(got.seen.map((s) => s.payload.webhook_id)).toEqual([11]);
  });
});
