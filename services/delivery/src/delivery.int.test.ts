/**
 * Delivery of `transfer.matched` to a real local receiver over a real Postgres and NATS: both
 * signatures checked by independent code, the compressed retry schedule, 410, Retry-After, the
 * failure count and auto-disable at exactly 20, re-enabling, connect-time SSRF refusal, and a dead
 * subscriber that does not slow a healthy one. Redirects, DNS rebinding through the real resolver
 * and secret rotation: redirects-not-followed.int.test.ts, ssrf-at-connect.int.test.ts and
 * http/delivery-endpoints.int.test.ts.
 */
import { createHmac } from "node:crypto";
import { deliveryFailed, transferMatched, transferNotificationSchema, webhookChanged, type EventPayload } from "@chaingate/contracts";
import type { TestDatabase } from "@chaingate/testing";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect } from "vitest";
import { SAMPLE_ADDRESSES, transferFor, type ReceivedRequest } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";
import { AUTO_DISABLE_FAILURES } from "./domain/attempt-outcome.ts";
import { MAX_ATTEMPTS } from "./domain/retry-schedule.ts";

/** The address transferFor's BTC events pay. */
const BTC = SAMPLE_ADDRESSES.BTC;
const TIMEOUT_MS = 2_000;
/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

deliveryTest.scoped({
  deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETRY_SCALE: "0.0001", DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS) },
});

type Attempt = { attempt: number; status_code: number | null; error: string | null };

/**
 * The account's side: its calls at the service's edge, its BTC webhooks on the receiver's paths and
 * what each path got, the attempts logged for an event, and the `delivery.failed` and
 * `webhook.changed` events published so far.
 */
interface Subscriber {
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: { data: Record<string, unknown>; meta?: unknown } }>;
  createWebhook(path: string): Promise<{ id: number; secret: string }>;
  at(path: string): ReceivedRequest[];
  attemptsOf(eventId: string): Promise<Attempt[]>;
  failures: Array<EventPayload<typeof deliveryFailed>>;
  changes: Array<EventPayload<typeof webhookChanged>>;
}

const it = deliveryTest.extend<{ subscriber: Subscriber }>({
  subscriber: [
    async ({ edge, receiver, database, busConnection }, use) => {
      const failures: Subscriber["failures"] = [];
      const changes: Subscriber["changes"] = [];
      await busConnection.ensureStreams([deliveryFailed, webhookChanged]);
      const consumptions = [
        await busConnection.consume(deliveryFailed, { durable: "test-failures", handle: async (payload) => void failures.push(payload) }),
        await busConnection.consume(webhookChanged, { durable: "test-changes", handle: async (payload) => void changes.push(payload) }),
      ];
      const api: Subscriber["api"] = async (method, path, body) => {
        const response = await fetch(`${edge.url}${path}`, {
          method,
          headers: { ...edge.headersFor(ACCOUNT_ID), accept: "application/json", "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { data: Record<string, unknown>; meta?: unknown } };
      };
      try {
        await use({
          api,
          async createWebhook(path) {
            const { status, body } = await api("POST", "/api/v1/webhooks", {
              coin: "BTC",
              webhook_url: `${receiver.url}${path}`,
              addresses: [BTC],
            });
            expect(status).toBe(201);
            return { id: body.data.id as number, secret: body.data.secret as string };
          },
          at: (path) => receiver.received.filter((r) => r.path === path),
          attemptsOf: (eventId) => attemptsLogged(database, eventId),
          failures,
          changes,
        });
      } finally {
        for (const consumption of consumptions) await consumption.stop();
      }
    },
    { scope: "file" },
  ],
});

function attemptsLogged(database: TestDatabase, eventId: string): Promise<Attempt[]> {
  return database.query<Attempt>(
    `select a.attempt, a.status_code, a.error from delivery.delivery_attempts a join delivery.delivery_jobs j on j.id = a.job_id where j.event_id = $1 order by a.id`,
    [eventId],
  );
}

describe("a delivered notification", () => {
  it("is the event as JSON, signed with the spec's HMAC header and the Standard Webhooks headers", async ({
    subscriber: { createWebhook, at },
    busConnection: bus,
  }) => {
    const { id, secret } = await createWebhook("/signed");
    const event = transferFor(id, "BTC", { chain: "bip122:000000000019d6689c085ae165831e93", direction: "in" });
    await bus.publish(transferMatched, event);
    await expect.poll(() => at("/signed").length, { timeout: 10_000 }).toBe(1);
    const [request] = at("/signed");
    // The event as the scanner published it, in the contract's version 1, naming no key (the address
    // was listed), numbered: the webhook's first event. It parses as the published schema says.
    const notified = { ...event, version: 1, xpub: null, sequence: 1 };
    expect(JSON.parse(request!.body)).toEqual(notified);
    expect(transferNotificationSchema.parse(JSON.parse(request!.body))).toEqual(notified);
    expect(request!.headers["x-service-sequence"]).toBe("1");
    expect(request!.headers["content-type"]).toBe("application/json");
    // The spec's scheme, checked with node:crypto: HMAC-SHA256(whole secret, timestamp + "." + body).
    const timestamp = request!.headers["x-service-timestamp"] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(request!.headers["x-service-signature"]).toBe(
      createHmac("sha256", secret).update(`${timestamp}.${request!.body}`).digest("hex"),
    );
    // Standard Webhooks, checked by the standardwebhooks library with the whole secret as raw key.
    expect(request!.headers["webhook-id"]).toBe(event.event_id);
    const verified = new StandardWebhook(secret, { format: "raw" }).verify(request!.body, request!.headers as Record<string, string>);
    expect(verified).toEqual(notified);
    expect(() =>
      new StandardWebhook(`${secret}0`, { format: "raw" }).verify(request!.body, request!.headers as Record<string, string>),
    ).toThrow();
  });

  it("the same event published twice is delivered once", async ({ subscriber: { createWebhook, at }, busConnection: bus }) => {
    const { id } = await createWebhook("/once");
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect.poll(() => at("/once").length, { timeout: 10_000 }).toBe(1);
    // A scanner republishing after the duplicate window: a new message, the same event id.
    await bus.publish(transferMatched, event);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(at("/once").length).toBe(1);
  });
});

describe("retries", () => {
  it("retry a failing subscriber on the schedule until it answers 2xx, every attempt logged with the same event id", async ({
    subscriber: { createWebhook, at, attemptsOf },
    busConnection: bus,
    receiver,
  }) => {
    receiver.on("/flaky", (_, res, count) => {
      res.statusCode = count <= 2 ? 500 : 204;
      res.end();
    });
    const { id } = await createWebhook("/flaky");
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect.poll(() => at("/flaky").length, { timeout: 10_000 }).toBe(3);
    expect(new Set(at("/flaky").map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.event_id]));
    await expect
      .poll(() => attemptsOf(event.event_id), { timeout: 5_000 })
      .toEqual([
        { attempt: 1, status_code: 500, error: "HTTP 500" },
        { attempt: 2, status_code: 500, error: "HTTP 500" },
        { attempt: 3, status_code: 204, error: null },
      ]);
  });

  it("Retry-After is honoured", async ({ subscriber: { createWebhook, at }, busConnection: bus, receiver }) => {
    receiver.on("/later", (_, res, count) => {
      res.statusCode = count === 1 ? 503 : 200;
      if (count === 1) res.setHeader("retry-after", "2");
      res.end();
    });
    const { id } = await createWebhook("/later");
    await bus.publish(transferMatched, transferFor(id));
    await expect.poll(() => at("/later").length, { timeout: 10_000 }).toBe(2);
    const [first, second] = at("/later");
    // The compressed schedule alone would retry within milliseconds.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
  });

  it("410 stops at once: one attempt, delivery.failed published, one failure counted", async ({
    subscriber: { createWebhook, at, failures },
    busConnection: bus,
    receiver,
    database,
  }) => {
    receiver.on("/gone", (_, res) => {
      res.statusCode = 410;
      res.end();
    });
    const { id } = await createWebhook("/gone");
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect
      .poll(() => failures.find((f) => f.event_id === event.event_id), { timeout: 10_000 })
      .toEqual({ webhook_id: id, event_id: event.event_id, coin: "BTC", attempts: 1, last_status: 410, last_error: "HTTP 410" });
    expect(at("/gone").length).toBe(1);
    expect(Number((await database.query(`select failure_count from delivery.webhooks where id = $1`, [id]))[0]!.failure_count)).toBe(1);
  });

  it(`a job that uses up its ${MAX_ATTEMPTS} attempts publishes delivery.failed.<coin> and counts one failure; a success resets the count`, async ({
    subscriber: { createWebhook, at, failures },
    busConnection: bus,
    receiver,
    database,
  }) => {
    let healthy = false;
    receiver.on("/down", (_, res) => {
      res.statusCode = healthy ? 200 : 502;
      res.end();
    });
    const { id } = await createWebhook("/down");
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect
      .poll(() => failures.find((f) => f.event_id === event.event_id), { timeout: 20_000 })
      .toMatchObject({ attempts: MAX_ATTEMPTS, last_status: 502 });
    expect(at("/down").length).toBe(MAX_ATTEMPTS);
    const count = async () =>
      Number((await database.query(`select failure_count from delivery.webhooks where id = $1`, [id]))[0]!.failure_count);
    expect(await count()).toBe(1);
    healthy = true;
    await bus.publish(transferMatched, transferFor(id));
    await expect.poll(count, { timeout: 10_000 }).toBe(0);
  }, 30_000);
});

describe("auto-disable", () => {
  it(`${AUTO_DISABLE_FAILURES} consecutive failed jobs set is_active to 0 (not 19); a PUT re-enables`, async ({
    subscriber: { api, createWebhook, at, failures, changes },
    busConnection: bus,
    receiver,
  }) => {
    receiver.on("/dead", (_, res) => {
      res.statusCode = 410;
      res.end();
    });
    const { id } = await createWebhook("/dead");
    const isActive = async () => (await api("GET", `/api/v1/webhooks/${id}`)).body.data.is_active;
    const sent: string[] = [];
    for (let i = 0; i < AUTO_DISABLE_FAILURES - 1; i++) {
      const event = transferFor(id);
      sent.push(event.event_id);
      await bus.publish(transferMatched, event);
    }
    await expect.poll(() => failures.filter((f) => sent.includes(f.event_id)).length, { timeout: 15_000 }).toBe(AUTO_DISABLE_FAILURES - 1);
    expect(await isActive()).toBe(1);
    await bus.publish(transferMatched, transferFor(id));
    await expect.poll(isActive, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => changes.filter((c) => c.webhook_id === id).at(-1)?.is_active, { timeout: 10_000 }).toBe(false);
    // Inactive: nothing more is sent; what comes is held, and pushed when a PUT re-enables (held_events defaults
    // to push): the transfer, and the webhook.disabled notice its own history keeps.
    const before = at("/dead").length;
    const [whileOff, afterwards] = [transferFor(id), transferFor(id)];
    await bus.publish(transferMatched, whileOff);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(at("/dead").length).toBe(before);
    receiver.on("/dead", (_, res) => res.end("ok"));
    expect((await api("PUT", `/api/v1/webhooks/${id}`, { is_active: true })).body.data.is_active).toBe(1);
    await bus.publish(transferMatched, afterwards);
    const typeOf = (body: string) => (JSON.parse(body) as { type: string; event_id: string }).type;
    await expect
      .poll(
        () =>
          at("/dead")
            .slice(before)
            .map((r) => (typeOf(r.body) === "transfer" ? r.headers["webhook-id"] : typeOf(r.body)))
            .sort(),
        {
          timeout: 10_000,
        },
      )
      .toEqual([whileOff.event_id, afterwards.event_id, "webhook.disabled"].sort());
  }, 40_000);
});

describe("isolation and SSRF at connect time", () => {
  it("a dead subscriber (never answers) does not slow a healthy one", async ({
    subscriber: { createWebhook, at },
    busConnection: bus,
    receiver,
  }) => {
    receiver.on("/hang", () => {});
    const dead = await createWebhook("/hang");
    const healthy = await createWebhook("/healthy");
    for (let i = 0; i < 40; i++) await bus.publish(transferMatched, transferFor(dead.id));
    const published: number[] = [];
    for (let i = 0; i < 20; i++) {
      published.push(Date.now());
      await bus.publish(transferMatched, transferFor(healthy.id));
    }
    await expect.poll(() => at("/healthy").length, { timeout: 10_000 }).toBe(20);
    const latencies = at("/healthy").map((r, i) => r.at - published[i]!);
    // Each healthy notification arrives well within one dead attempt's timeout.
    expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS / 2);
    // Meanwhile the dead one held its own slots only: at most DELIVERY_PER_WEBHOOK_CONCURRENCY (8) attempts open.
    expect(at("/hang").length).toBeGreaterThan(0);
    expect(at("/hang").length).toBeLessThanOrEqual(8);
  }, 20_000);

  it("an address the save-time check never saw (DNS rebinding) is refused when connecting", async ({
    subscriber: { createWebhook, at, attemptsOf },
    busConnection: bus,
    receiver,
    database,
  }) => {
    const { id } = await createWebhook("/rebound");
    // The name now points somewhere private: here, the stored URL itself is re-pointed at 127.0.0.2,
    // outside WEBHOOK_ALLOW_CIDRS, as a rebinding resolver would.
    const port = new URL(receiver.url).port;
    await database.query(`update delivery.webhooks set webhook_url = $1 where id = $2`, [`http://127.0.0.2:${port}/rebound`, id]);
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect.poll(async () => (await attemptsOf(event.event_id))[0]?.error ?? "", { timeout: 10_000 }).toMatch(/not allowed/);
    expect(at("/rebound").length).toBe(0);
  });
});

describe("delivery log, replay and test events", () => {
  it("pages the webhook's deliveries newest first with every attempt, filtered by status", async ({
    subscriber: { api, createWebhook, at },
    busConnection: bus,
    receiver,
  }) => {
    receiver.on("/logged", (_, res, count) => {
      res.statusCode = count === 1 ? 500 : 200;
      res.end(count === 1 ? "boom" : "fine");
    });
    const { id } = await createWebhook("/logged");
    const first = transferFor(id);
    const second = transferFor(id);
    await bus.publish(transferMatched, first);
    await expect.poll(() => at("/logged").length, { timeout: 10_000 }).toBe(2);
    await bus.publish(transferMatched, second);
    await expect
      .poll(async () => (await api("GET", `/api/v1/webhooks/${id}/deliveries?status=delivered`)).body.meta, { timeout: 10_000 })
      .toEqual({ current_page: 1, per_page: 50, total: 2, last_page: 1 });
    const page = (await api("GET", `/api/v1/webhooks/${id}/deliveries?status=delivered`)).body as unknown as {
      data: Array<Record<string, unknown>>;
    };
    expect(page.data.map((d) => d.event_id)).toEqual([second.event_id, first.event_id]);
    expect(page.data[1]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null, payload: first });
    expect(page.data[1]!.attempt_log).toEqual([
      {
        attempt: 1,
        status_code: 500,
        latency_ms: expect.any(Number),
        error: "HTTP 500",
        response_excerpt: "boom",
        created_at: expect.any(String),
      },
      {
        attempt: 2,
        status_code: 200,
        latency_ms: expect.any(Number),
        error: null,
        response_excerpt: "fine",
        created_at: expect.any(String),
      },
    ]);
    expect((await api("GET", `/api/v1/webhooks/${id}/deliveries?status=failed`)).body.data).toEqual([]);
    expect((await api("GET", `/api/v1/webhooks/${id}/deliveries?status=bogus`)).status).toBe(422);
  });

  it("retry re-sends a failed delivery with the same event id", async ({
    subscriber: { api, createWebhook, at },
    busConnection: bus,
    receiver,
  }) => {
    let up = false;
    receiver.on("/replay", (_, res) => {
      res.statusCode = up ? 200 : 410;
      res.end();
    });
    const { id } = await createWebhook("/replay");
    const event = transferFor(id);
    await bus.publish(transferMatched, event);
    await expect
      .poll(async () => (await api("GET", `/api/v1/webhooks/${id}/deliveries?status=failed`)).body.data, { timeout: 10_000 })
      .toHaveLength(1);
    const failed = (
      (await api("GET", `/api/v1/webhooks/${id}/deliveries?status=failed`)).body.data as unknown as Array<{ id: number }>
    )[0]!;
    up = true;
    const retried = await api("POST", `/api/v1/webhooks/${id}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ id: failed.id, status: "pending", event_id: event.event_id });
    await expect.poll(() => at("/replay").length, { timeout: 10_000 }).toBe(2);
    expect(at("/replay").map((r) => r.headers["webhook-id"])).toEqual([event.event_id, event.event_id]);
    expect((await api("POST", `/api/v1/webhooks/${id}/deliveries/999999/retry`)).status).toBe(404);
  });
});
