/**
 * The bus against the shared NATS, under a namespace of the file's own: publishing (deduplicated,
 * validated, traced), consuming (acks, retries, terminations), compacted streams and core signals.
 */
import { randomBytes } from "node:crypto";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { context, trace, TraceFlags } from "@opentelemetry/api";
import { transferMatched, z, type EventContract, type EventPayload } from "@chaingate/contracts";
import { ChaingateError } from "@chaingate/errors";
import { integrationTest } from "@chaingate/testing/fixtures";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { connectBus, type Bus, type Consumption, type MessageInfo } from "./index.ts";
import { sampleTransfer } from "./testing/sample-transfer.ts";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
/** What a test started consuming: stopped after the test. */
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

/** A compacted stream as the watch feed uses it: one message per subject, kept forever. */
const stateSchema = z.object({ key: z.string(), version: z.number().int(), value: z.string() });
const stateChanged = {
  name: "state.changed",
  stream: "SNAPSHOTS",
  streamSubjects: "state.changed.*",
  streamOptions: { maxMsgsPerSubject: 1, maxAgeMs: 0 },
  schema: stateSchema,
  subject: (p) => `state.changed.${p.key}`,
  messageId: (p) => `state:${p.key}:${p.version}`,
} satisfies EventContract<typeof stateSchema>;
type State = EventPayload<typeof stateChanged>;
const versionOf = (p: State) => p.version;

interface BusFixtures {
  /** A connection to the file's bus with `transfer.matched`'s stream (ensured twice: it is idempotent), deleted after the file. */
  busConnection: Bus;
  /** The same connection with the compacted SNAPSHOTS stream (`state.changed`) ensured too, deleted after the file. */
  compactedBus: Bus;
}

const it = integrationTest.extend<BusFixtures>({
  busConnection: [
    async ({ bus }, use) => {
      const connection = await connectBus({ url: bus.url, name: "bus-test", logger, namespace: bus.namespace });
      try {
        await connection.ensureStreams([transferMatched]);
        await connection.ensureStreams([transferMatched]); // idempotent
        await use(connection);
        await connection.admin.deleteStream(transferMatched);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
  compactedBus: [
    async ({ busConnection }, use) => {
      await busConnection.ensureStreams([stateChanged]);
      await use(busConnection);
      await busConnection.admin.deleteStream(stateChanged);
    },
    { scope: "file" },
  ],
});

// The trace context travels through AsyncLocalStorage, as in a service.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(async () => {
  await Promise.all(consumptions.splice(0).map((c) => c.stop()));
});
afterAll(() => {
  context.disable();
});

describe("bus", () => {
  it("drops a republished event as a duplicate (same Nats-Msg-Id) and delivers it once", async ({ busConnection, bus: { namespace } }) => {
    const event = transfer();
    expect((await busConnection.publish(transferMatched, event)).duplicate).toBe(false);
    expect((await busConnection.publish(transferMatched, event)).duplicate).toBe(true);
    const got = collector(1);
    consumptions.push(await busConnection.consume(transferMatched, { durable: "dedup", handle: async (p, i) => got.record(p, i) }));
    await got.enough;
    await new Promise((r) => setTimeout(r, 300));
    expect(got.seen).toHaveLength(1);
    expect(got.seen[0]?.payload).toEqual(event);
    expect(got.seen[0]?.info.messageId).toBe(`match:BTC:${event.txid}:0:7:${event.event_id}`);
    expect(got.seen[0]?.info.subject).toBe(`${namespace}.transfer.matched.btc`);
  });

  it("refuses to publish a payload that breaks its contract", async ({ busConnection }) => {
    await expect(busConnection.publish(transferMatched, transfer({ amount: "1e-8" }))).rejects.toThrow();
  });

  it("carries the publisher's trace context to the consumer", async ({ busConnection }) => {
    const spanContext = {
      traceId: randomBytes(16).toString("hex"),
      spanId: randomBytes(8).toString("hex"),
      traceFlags: TraceFlags.SAMPLED,
    };
    const event = transfer({ webhook_id: 8 });
    await context.with(trace.setSpan(context.active(), trace.wrapSpanContext(spanContext)), () =>
      busConnection.publish(transferMatched, event),
    );
    const got = collector(1);
    consumptions.push(
      await busConnection.consume(transferMatched, {
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

  it("acks only after the handler succeeds: a failed attempt is redelivered, a permanent failure is not", async ({ busConnection }) => {
    const flaky = transfer({ webhook_id: 9 });
    const poison = transfer({ webhook_id: 10 });
    await busConnection.publish(transferMatched, flaky);
    await busConnection.publish(transferMatched, poison);
    const attempts = new Map<number, number>();
    const got = collector(1);
    consumptions.push(
      await busConnection.consume(transferMatched, {
        durable: "retry",
        handle: async (payload, info) => {
          if (payload.webhook_id !== 9 && payload.webhook_id !== 10) return;
          attempts.set(payload.webhook_id, (attempts.get(payload.webhook_id) ?? 0) + 1);
          if (payload.webhook_id === 10) throw new ChaingateError("bad_event", "cannot ever work", { retryable: false });
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

  it("retries an error nobody classified (a ChaingateError without retryable) and delivers the event later", async ({ busConnection }) => {
    await busConnection.publish(transferMatched, transfer({ webhook_id: 12 }));
    const got = collector(1);
    consumptions.push(
      await busConnection.consume(transferMatched, {
        durable: "unclassified",
        handle: async (payload, info) => {
          if (payload.webhook_id !== 12) return;
          if (info.deliveryCount === 1) throw new ChaingateError("lock_timeout", "a row lock timed out");
          got.record(payload, info);
        },
      }),
    );
    await expect.poll(() => got.seen.length, { timeout: 10_000 }).toBe(1);
    expect(got.seen[0]?.info.deliveryCount).toBe(2);
  });

  it("terminates a message whose payload breaks the contract and goes on with the next", async ({ busConnection }) => {
    await busConnection.admin.publishRaw("transfer.matched.eth", JSON.stringify({ nonsense: true }));
    const event = transfer({ coin: "ETH", currency: "ETH", webhook_id: 11 });
    await busConnection.publish(transferMatched, event);
    const got = collector(1);
    consumptions.push(
      await busConnection.consume(transferMatched, {
        durable: "eth",
        filterSubject: "transfer.matched.eth",
        handle: async (p, i) => got.record(p, i),
      }),
    );
    await got.enough;
    expect(got.seen.map((s) => s.payload.webhook_id)).toEqual([11]);
  });
});

describe("stopping", () => {
  it("ends a consumption stopped right after it started (before its first pull was set up)", async ({ busConnection }) => {
    await busConnection.ensureStreams([transferMatched]);
    for (let round = 0; round < 20; round++) {
      const consumption = await busConnection.consume(transferMatched, { durable: `stopped-early-${round}`, handle: async () => {} });
      const stopped = await Promise.race([
        consumption.stop().then(() => "stopped"),
        new Promise((resolve) => setTimeout(() => resolve("still running after 5 s"), 5_000)),
      ]);
      expect(stopped, `round ${round}`).toBe("stopped");
    }
  });
});

describe("compacted streams", () => {
  it("take per-contract stream options (one message per subject, no max age); the other streams keep 7 days", async ({
    compactedBus,
    bus: { namespace },
  }) => {
    const snapshots = await compactedBus.admin.streamInfo(stateChanged);
    expect(snapshots.config).toMatchObject({ max_msgs_per_subject: 1, max_age: 0 });
    const transfers = await compactedBus.admin.streamInfo(transferMatched);
    expect(transfers.config.max_age).toBe(7 * 24 * 60 * 60 * 1e9);
    for (let version = 1; version <= 3; version++) await compactedBus.publish(stateChanged, { key: "a", version, value: `v${version}` });
    expect((await compactedBus.admin.lastMessage(stateChanged, "state.changed.a"))?.json()).toMatchObject({ version: 3 });
    expect((await compactedBus.admin.streamInfo(stateChanged, { subjects: "state.changed.a" })).state.subjects).toEqual({
      [`${namespace}.state.changed.a`]: 1,
    });
  });

  it("keep the subjects other contracts of the stream added: ensuring one contract never takes another's away", async ({
    compactedBus,
    bus: { namespace },
  }) => {
    const other = { ...stateChanged, name: "state.other", streamSubjects: "state.other.*" };
    await compactedBus.ensureStreams([other]);
    await compactedBus.ensureStreams([stateChanged]);
    expect((await compactedBus.admin.streamInfo(stateChanged)).config.subjects.sort()).toEqual([
      `${namespace}.state.changed.*`,
      `${namespace}.state.other.*`,
    ]);
  });

  it("let processes that know different contracts of one stream create it at the same moment: both succeed, every subject kept", async ({
    compactedBus,
    bus: { url, namespace },
  }) => {
    // A service and its test (or two services) starting together: each finds no stream, and each adds it with its own subjects.
    for (let round = 0; round < 10; round++) {
      const stream = `RACE${round}`;
      const contracts = ["a", "b", "c"].map((part) => ({
        ...stateChanged,
        name: `race.${part}`,
        stream,
        streamSubjects: `race${round}.${part}.*`,
      }));
      const others = await Promise.all([1, 2, 3].map(() => connectBus({ url, name: "bus-test", logger, namespace })));
      try {
        await Promise.all(others.map((other, i) => other.ensureStreams([contracts[i]!])));
        expect((await compactedBus.admin.streamInfo(contracts[0]!)).config.subjects.sort()).toEqual(
          ["a", "b", "c"].map((part) => `${namespace}.race${round}.${part}.*`),
        );
        await compactedBus.admin.deleteStream(contracts[0]!);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    }
  });

  it("ensure every subject the stream options name, whichever of the stream's contracts is given", async ({
    compactedBus,
    bus: { namespace },
  }) => {
    const shared = { subjects: ["state.left.*", "state.right.*"] };
    const left = { ...stateChanged, name: "state.left", stream: "SHARED", streamSubjects: "state.left.*", streamOptions: shared };
    await compactedBus.ensureStreams([left]);
    expect((await compactedBus.admin.streamInfo(left)).config.subjects.sort()).toEqual([
      `${namespace}.state.left.*`,
      `${namespace}.state.right.*`,
    ]);
    await compactedBus.admin.deleteStream(left);
  });

  it("refuse contracts of one stream that ask for different options", async ({ compactedBus }) => {
    await expect(
      compactedBus.ensureStreams([
        stateChanged,
        { ...stateChanged, name: "state.other", streamSubjects: "state.other.*", streamOptions: { maxMsgsPerSubject: 2 } },
      ]),
    ).rejects.toThrow(/different stream options/);
  });
});

describe("publishing and consuming on a compacted stream", () => {
  it("publishIfNewer never lets an older state land after a newer one, however publishers race", async ({ compactedBus }) => {
    expect(await compactedBus.publishIfNewer(stateChanged, { key: "b", version: 5, value: "five" }, versionOf)).toEqual({
      published: true,
    });
    expect(await compactedBus.publishIfNewer(stateChanged, { key: "b", version: 4, value: "four" }, versionOf)).toEqual({
      published: false,
    });
    expect(await compactedBus.publishIfNewer(stateChanged, { key: "b", version: 5, value: "five" }, versionOf)).toEqual({
      published: false,
    });
    // Fifteen publishers of versions 6..20 at once, in a shuffled order: the subject ends at the newest.
    const versions = Array.from({ length: 15 }, (_, i) => 6 + i).sort(() => Math.random() - 0.5);
    const results = await Promise.all(
      versions.map((version) => compactedBus.publishIfNewer(stateChanged, { key: "b", version, value: `v${version}` }, versionOf)),
    );
    expect(results[versions.indexOf(20)]).toEqual({ published: true });
    const last = await compactedBus.admin.lastMessage(stateChanged, "state.changed.b");
    expect(last?.json()).toEqual({ key: "b", version: 20, value: "v20" });
  });

  it("removes the messages of a subject pattern, leaving the others, and a consumer that is behind still gets every other message", async ({
    compactedBus,
    bus: { namespace },
  }) => {
    const key = (name: string) => ({ key: name, version: 1, value: "x" });
    const handled: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A consumer stuck on its first message while the rest pile up behind it.
    consumptions.push(
      await compactedBus.consume(stateChanged, {
        durable: "behind",
        maxAckPending: 1,
        filterSubject: "state.changed.*",
        handle: async (p) => {
          if (!p.key.startsWith("r")) return;
          if (p.key === "r0") await held;
          handled.push(p.key);
        },
      }),
    );
    await compactedBus.publish(stateChanged, key("r0"));
    for (const name of ["r1", "rgone", "r2"]) await compactedBus.publish(stateChanged, key(name));
    expect(await compactedBus.removeSubjects(stateChanged, "state.changed.rgone")).toBe(1);
    expect(await compactedBus.removeSubjects(stateChanged, "state.changed.rnothing")).toBe(0);
    await compactedBus.publish(stateChanged, key("r3"));
    release();
    await expect.poll(() => handled, { timeout: 10_000 }).toEqual(["r0", "r1", "r2", "r3"]);
    const { state } = await compactedBus.admin.streamInfo(stateChanged, { subjects: "state.changed.>" });
    expect(Object.keys(state.subjects ?? {})).not.toContain(`${namespace}.state.changed.rgone`);
  });

  it("maxAckPending 1 hands messages out one at a time: two replicas of a durable handle them in stream order", async ({
    compactedBus,
  }) => {
    for (let version = 1; version <= 30; version++) await compactedBus.publish(stateChanged, { key: `o${version}`, version, value: "x" });
    const order: number[] = [];
    let inFlight = 0;
    let overlapped = false;
    const handle = async (p: State) => {
      if (!p.key.startsWith("o")) return;
      inFlight++;
      overlapped ||= inFlight > 1;
      await new Promise((r) => setTimeout(r, Math.random() * 10));
      order.push(p.version);
      inFlight--;
    };
    for (let replica = 0; replica < 2; replica++) {
      consumptions.push(await compactedBus.consume(stateChanged, { durable: "in-order", maxAckPending: 1, handle }));
    }
    await expect.poll(() => order.length, { timeout: 20_000 }).toBe(30);
    expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(overlapped).toBe(false);
  });
});

describe("signals (core NATS)", () => {
  it("reach every bus of the same namespace with the subject as signalled, and no bus of another namespace", async ({
    busConnection,
    bus: { url, namespace },
  }) => {
    const sibling = await connectBus({ url, name: "bus-test-sibling", logger, namespace });
    const stranger = await connectBus({ url, name: "bus-test-stranger", logger, namespace: `${namespace}x` });
    try {
      const heard: string[] = [];
      const strangerHeard: string[] = [];
      const subscription = sibling.onSignal("test.signal.*", (subject, data) => heard.push(`${subject} ${data}`));
      stranger.onSignal("test.signal.*", (subject, data) => strangerHeard.push(`${subject} ${data}`));
      // A round trip through the server: both subscriptions are registered before the signals.
      await Promise.all([sibling.ping(), stranger.ping()]);
      busConnection.signal("test.signal.BTC", "one");
      busConnection.signal("test.other", "ignored");
      await expect.poll(() => heard).toEqual(["test.signal.BTC one"]);
      subscription.unsubscribe();
      await sibling.ping();
      busConnection.signal("test.signal.ETH", "after");
      await busConnection.ping();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual(["test.signal.BTC one"]);
      expect(strangerHeard).toEqual([]);
    } finally {
      await Promise.all([sibling.close(), stranger.close()]);
    }
  });
});
