/**
 * Delivery of `transfer.matched` to a real local receiver over a real Postgres and NATS: both
 * signatures checked by independent code, the compressed retry schedule, 410, Retry-After, the
 * failure count and auto-disable at exactly 20, re-enabling, connect-time SSRF refusal, and a dead
 * subscriber that does not slow a healthy one. Redirects, DNS rebinding through the real resolver
 * and secret rotation: ssrf-at-connect.int.test.ts and http/delivery-endpoints.int.test.ts.
 */
import { createHmac, randomBytes } from "node:crypto";
import { connectBus, type Bus } from "@chaingate/bus";
import { deliveryFailed, transferMatched, webhookChanged, type EventPayload } from "@chaingate/contracts";
import { createTestDatabase, internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryService } from "./create-delivery-service.ts";
import { startLocalReceiver, startTestDelivery, type LocalReceiver } from "./testing/index.ts";
import { AUTO_DISABLE_FAILURES } from "./domain/attempt-outcome.ts";
import { MAX_ATTEMPTS } from "./domain/retry-schedule.ts";

const NAMESPACE = `d${randomBytes(4).toString("hex")}`;
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const BTC = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const TIMEOUT_MS = 2_000;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

let database: TestDatabase;
let delivery: DeliveryService;
let edge: InternalEdge;
/** The account the gateway would have authenticated. */
const account = { accountId: 1 };
let receiver: LocalReceiver;
let bus: Bus;
const failures: Array<EventPayload<typeof deliveryFailed>> = [];
const changes: Array<EventPayload<typeof webhookChanged>> = [];
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startLocalReceiver();
  delivery = await startTestDelivery(database.connectionString, {
    NATS_URL,
    NATS_NAMESPACE: NAMESPACE,
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_RETRY_SCALE: "0.0001",
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
  });
  edge = internalEdge(delivery);
  bus = await connectBus({ url: NATS_URL, name: "test", logger: silent, namespace: NAMESPACE });
  await bus.ensureStreams([transferMatched, deliveryFailed, webhookChanged]);
  await bus.consume(deliveryFailed, { durable: "test-failures", handle: async (payload) => void failures.push(payload) });
  await bus.consume(webhookChanged, { durable: "test-changes", handle: async (payload) => void changes.push(payload) });
  client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await bus?.close();
  await delivery?.close();
  await receiver?.close();
  await database?.drop();
});

async function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data: Record<string, unknown>; meta?: unknown } }> {
  const response = await fetch(`${edge.url}${path}`, {
    method,
    headers: { ...edge.headersFor(account.accountId), accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown>; meta?: unknown } };
}
async function createWebhook(path: string): Promise<{ id: number; secret: string }> {
  const { status, body } = await api("POST", "/api/v1/webhooks", { coin: "BTC", webhook_url: `${receiver.url}${path}`, addresses: [BTC] });
  expect(status).toBe(201);
  return { id: body.data.id as number, secret: body.data.secret as string };
}
let eventCounter = 0;
function transfer(webhookId: number): EventPayload<typeof transferMatched> {
  eventCounter++;
  return {
    event_id: `evt_${NAMESPACE}_${eventCounter}`,
    type: "transfer",
    webhook_id: webhookId,
    coin: "BTC",
    currency: "BTC",
    from: null,
    to: BTC,
    watched_address: BTC,
    amount: "0.00012345",
    raw_amount: "12345",
    decimals: 8,
    token_contract: null,
    txid: randomBytes(32).toString("hex"),
    position: eventCounter,
    block: { height: 100 + eventCounter, hash: randomBytes(32).toString("hex"), time: "2026-11-22T10:00:00.000Z" },
    execution_status: "SUCCESS",
    confirmations: 1,
  };
}
const at = (path: string) => receiver.received.filter((r) => r.path === path);
async function attemptsOf(eventId: string): Promise<Array<{ attempt: number; status_code: number | null; error: string | null }>> {
  const { rows } = await client.query(
    `select a.attempt, a.status_code, a.error from delivery.delivery_attempts a join delivery.delivery_jobs j on j.id = a.job_id where j.event_id = $1 order by a.id`,
    [eventId],
  );
  return rows as Array<{ attempt: number; status_code: number | null; error: string | null }>;
}

describe("a delivered notification", () => {
  it("is the event as JSON, signed with the spec's HMAC header and the Standard Webhooks headers", async () => {
    const { id, secret } = await createWebhook("/signed");
    const event = transfer(id);
    await bus.publish(transferMatched, event);
    await expect.poll(() => at("/signed").length, { timeout: 10_000 }).toBe(1);
    const [request] = at("/signed");
    expect(JSON.parse(request!.body)).toEqual(event);
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
    expect(verified).toEqual(event);
    expect(() =>
      new StandardWebhook(`${secret}0`, { format: "raw" }).verify(request!.body, request!.headers as Record<string, string>),
    ).toThrow();
  });

  it("the same event published twice is delivered once", async () => {
    const { id } = await createWebhook("/once");
    const event = transfer(id);
    await bus.publish(transferMatched, event);
    await expect.poll(() => at("/once").length, { timeout: 10_000 }).toBe(1);
    // A scanner republishing after the duplicate window: a new message, the same event id.
    await bus.publish(transferMatched, event);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(at("/once").length).toBe(1);
  });
});

describe("retries", () => {
  it("retry a failing subscriber on the schedule until it answers 2xx, every attempt logged with the same event id", async () => {
    receiver.on("/flaky", (_, res, count) => {
      res.statusCode = count <= 2 ? 500 : 204;
      res.end();
    });
    const { id } = await createWebhook("/flaky");
    const event = transfer(id);
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

  it("Retry-After is honoured", async () => {
    receiver.on("/later", (_, res, count) => {
      res.statusCode = count === 1 ? 503 : 200;
      if (count === 1) res.setHeader("retry-after", "2");
      res.end();
    });
    const { id } = await createWebhook("/later");
    await bus.publish(transferMatched, transfer(id));
    await expect.poll(() => at("/later").length, { timeout: 10_000 }).toBe(2);
    const [first, second] = at("/later");
    // The compressed schedule alone would retry within milliseconds.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
  });

  it("410 stops at once: one attempt, delivery.failed published, one failure counted", async () => {
    receiver.on("/gone", (_, res) => {
      res.statusCode = 410;
      res.end();
    });
    const { id } = await createWebhook("/gone");
    const event = transfer(id);
    await bus.publish(transferMatched, event);
    await expect
      .poll(() => failures.find((f) => f.event_id === event.event_id), { timeout: 10_000 })
      .toEqual({ webhook_id: id, event_id: event.event_id, coin: "BTC", attempts: 1, last_status: 410, last_error: "HTTP 410" });
    expect(at("/gone").length).toBe(1);
    expect(Number((await client.query(`select failure_count from delivery.webhooks where id = $1`, [id])).rows[0].failure_count)).toBe(1);
  });

  it(`a job that uses up its ${MAX_ATTEMPTS} attempts publishes delivery.failed.<coin> and counts one failure; a success resets the count`, async () => {
    let healthy = false;
    receiver.on("/down", (_, res) => {
      res.statusCode = healthy ? 200 : 502;
      res.end();
    });
    const { id } = await createWebhook("/down");
    const event = transfer(id);
    await bus.publish(transferMatched, event);
    await expect
      .poll(() => failures.find((f) => f.event_id === event.event_id), { timeout: 20_000 })
      .toMatchObject({ attempts: MAX_ATTEMPTS, last_status: 502 });
    expect(at("/down").length).toBe(MAX_ATTEMPTS);
    const count = async () =>
      Number((await client.query(`select failure_count from delivery.webhooks where id = $1`, [id])).rows[0].failure_count);
    expect(await count()).toBe(1);
    healthy = true;
    await bus.publish(transferMatched, transfer(id));
    await expect.poll(count, { timeout: 10_000 }).toBe(0);
  }, 30_000);

  it(`${AUTO_DISABLE_FAILURES} consecutive failed jobs set is_active to 0 (not 19); a PUT re-enables`, async () => {
    receiver.on("/dead", (_, res) => {
      res.statusCode = 410;
      res.end();
    });
    const { id } = await createWebhook("/dead");
    const isActive = async () => (await api("GET", `/api/v1/webhooks/${id}`)).body.data.is_active;
    const sent: string[] = [];
    for (let i = 0; i < AUTO_DISABLE_FAILURES - 1; i++) {
      const event = transfer(id);
      sent.push(event.event_id);
      await bus.publish(transferMatched, event);
    }
    await expect.poll(() => failures.filter((f) => sent.includes(f.event_id)).length, { timeout: 15_000 }).toBe(AUTO_DISABLE_FAILURES - 1);
    expect(await isActive()).toBe(1);
    await bus.publish(transferMatched, transfer(id));
    await expect.poll(isActive, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => changes.filter((c) => c.webhook_id === id).at(-1)?.is_active, { timeout: 10_000 }).toBe(false);
    // Inactive: nothing more is sent.
    const before = at("/dead").length;
    await bus.publish(transferMatched, transfer(id));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(at("/dead").length).toBe(before);
    receiver.on("/dead", (_, res) => res.end("ok"));
    expect((await api("PUT", `/api/v1/webhooks/${id}`, { is_active: true })).body.data.is_active).toBe(1);
    await bus.publish(transferMatched, transfer(id));
    await expect.poll(() => at("/dead").length, { timeout: 10_000 }).toBe(before + 1);
  }, 40_000);
});

describe("isolation and SSRF at connect time", () => {
  it("a dead subscriber (never answers) does not slow a healthy one", async () => {
    receiver.on("/hang", () => {});
    const dead = await createWebhook("/hang");
    const healthy = await createWebhook("/healthy");
    for (let i = 0; i < 40; i++) await bus.publish(transferMatched, transfer(dead.id));
    const published: number[] = [];
    for (let i = 0; i < 20; i++) {
      published.push(Date.now());
      await bus.publish(transferMatched, transfer(healthy.id));
    }
    await expect.poll(() => at("/healthy").length, { timeout: 10_000 }).toBe(20);
    const latencies = at("/healthy").map((r, i) => r.at - published[i]!);
    // Each healthy notification arrives well within one dead attempt's timeout.
    expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS / 2);
    // Meanwhile the dead one held its own slots only: at most DELIVERY_PER_WEBHOOK_CONCURRENCY (8) attempts open.
    expect(at("/hang").length).toBeGreaterThan(0);
    expect(at("/hang").length).toBeLessThanOrEqual(8);
  }, 20_000);

  it("an address the save-time check never saw (DNS rebinding) is refused when connecting", async () => {
    const { id } = await createWebhook("/rebound");
    // The name now points somewhere private: here, the stored URL itself is re-pointed at 127.0.0.2,
    // outside WEBHOOK_ALLOW_CIDRS, as a rebinding resolver would.
    const port = new URL(receiver.url).port;
    await client.query(`update delivery.webhooks set webhook_url = $1 where id = $2`, [`http://127.0.0.2:${port}/rebound`, id]);
    const event = transfer(id);
    await bus.publish(transferMatched, event);
    await expect.poll(async () => (await attemptsOf(event.event_id))[0]?.error ?? "", { timeout: 10_000 }).toMatch(/not allowed/);
    expect(at("/rebound").length).toBe(0);
  });
});

describe("delivery log, replay and test events", () => {
  it("pages the webhook's deliveries newest first with every attempt, filtered by status", async () => {
    receiver.on("/logged", (_, res, count) => {
      res.statusCode = count === 1 ? 500 : 200;
      res.end(count === 1 ? "boom" : "fine");
    });
    const { id } = await createWebhook("/logged");
    const first = transfer(id);
    const second = transfer(id);
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

  it("retry re-sends a failed delivery with the same event id", async () => {
    let up = false;
    receiver.on("/replay", (_, res) => {
      res.statusCode = up ? 200 : 410;
      res.end();
    });
    const { id } = await createWebhook("/replay");
    const event = transfer(id);
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

  it("test sends a signed test event", async () => {
    const { id, secret } = await createWebhook("/test-event");
    const queued = await api("POST", `/api/v1/webhooks/${id}/test`);
    expect(queued.status).toBe(202);
    await expect.poll(() => at("/test-event").length, { timeout: 10_000 }).toBe(1);
    const [request] = at("/test-event");
    expect(new StandardWebhook(secret, { format: "raw" }).verify(request!.body, request!.headers as Record<string, string>)).toEqual({
      event_id: queued.body.data.event_id,
      type: "test",
      webhook_id: id,
      coin: "BTC",
      created_at: expect.any(String),
    });
  });
});
