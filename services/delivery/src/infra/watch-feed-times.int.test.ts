/**
 * The registry's times on the watch feed (issue 16, item 7), over a real Postgres and NATS: the
 * watermark (`webhook.watermark`: every change committed before its `registry_time` is in the
 * stream ahead of it) and `since` on bucket and meta messages (when their new addresses or the
 * webhook's activation took effect). Read in stream order, as the scanner reads the feed.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import {
  addressIssued,
  isAddressBucket,
  isWatermark,
  isWebhookMeta,
  webhookAddresses,
  webhookChanged,
  webhookFeed,
  WEBHOOK_FEED_STREAM_OPTIONS,
  type WebhookFeedMessage,
} from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { createTestDatabase, silentLogger, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryService } from "../create-delivery-service.ts";
import { startTestDelivery } from "../testing/index.ts";
import { RELAY_LOCK_NAMESPACE } from "../workers/webhook-changed-relay.ts";

const NAMESPACE = `t${randomBytes(4).toString("hex")}`;
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT = 7;
const WATERMARK_INTERVAL_MS = 100;
/** The WEBHOOK_FEED stream as the previous release created it. */
const OLD_FEED_SUBJECTS = ["webhook.changed.*", "webhook.addresses.*.*.*"];

let database: TestDatabase;
let delivery: DeliveryService;
let client: pg.Client;
let bus: Bus;
let reading: Consumption;
/** The feed in stream order. */
const feed: WebhookFeedMessage[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  bus = await connectBus({ url: NATS_URL, name: "watch-feed-times-test", logger: silentLogger, namespace: NAMESPACE });
  const oldOptions = { ...WEBHOOK_FEED_STREAM_OPTIONS, subjects: OLD_FEED_SUBJECTS };
  await bus.ensureStreams([
    { ...webhookChanged, streamOptions: oldOptions },
    { ...webhookAddresses, streamOptions: oldOptions },
  ]);
  await bus.ensureStreams([addressIssued]);
  // Read without ensuring the feed's streams here: only the service's own start may add the subject.
  reading = await bus.consume(webhookFeed, { durable: "times-test", maxAckPending: 1, handle: async (message) => void feed.push(message) });
  delivery = await startTestDelivery(database.connectionString, {
    NATS_URL,
    NATS_NAMESPACE: NAMESPACE,
    WATCH_WATERMARK_INTERVAL_MS: String(WATERMARK_INTERVAL_MS),
  });
  client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
});
afterAll(async () => {
  await reading?.stop();
  await delivery?.close();
  await bus?.close();
  await client?.end();
  await database?.drop();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const response = await fetch(`${delivery.url}${path}`, {
    method,
    headers: {
      accept: "application/json",
      [ACCOUNT_ID_HEADER]: String(ACCOUNT),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, data: text ? (JSON.parse(text) as { data: Record<string, unknown> }).data : {} };
}
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;
/** The registry database's clock now (milliseconds, as the feed carries it). */
async function registryClock(): Promise<number> {
  return (await client.query<{ now: Date }>("select clock_timestamp() as now")).rows[0]!.now.getTime();
}
const watermarkTimes = (from = 0) =>
  feed
    .slice(from)
    .filter(isWatermark)
    .map((m) => Date.parse(m.registry_time));
/** Position in the feed of the first watermark later than `time` (waits for it). */
async function firstWatermarkAfter(time: number): Promise<number> {
  await expect.poll(() => watermarkTimes().some((t) => t > time), { timeout: 10_000 }).toBe(true);
  return feed.findIndex((m) => isWatermark(m) && Date.parse(m.registry_time) > time);
}
const positionOf = (match: (message: WebhookFeedMessage) => boolean) => feed.findIndex(match);
async function bucketWith(webhookId: number, address: string) {
  await expect
    .poll(() => feed.some((m) => isAddressBucket(m) && m.webhook_id === webhookId && m.addresses.includes(address)), { timeout: 10_000 })
    .toBe(true);
  return feed.find((m) => isAddressBucket(m) && m.webhook_id === webhookId && m.addresses.includes(address)) as Extract<
    WebhookFeedMessage,
    { addresses: string[] }
  >;
}
const metasOf = (webhookId: number) =>
  feed.filter((m): m is Extract<WebhookFeedMessage, { is_active: boolean }> => isWebhookMeta(m) && m.webhook_id === webhookId);

describe("the registry watermark", () => {
  it("reaches a stream the previous release created (the service adds webhook.watermark at start) and arrives periodically while idle, never going back", async () => {
    await expect.poll(() => watermarkTimes().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const from = feed.length;
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const times = watermarkTimes(from);
    // 10 ticks in that second; a loaded machine may miss a few.
    expect(times.length).toBeGreaterThanOrEqual(5);
    expect(times.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / WATERMARK_INTERVAL_MS) + 2);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    const now = await registryClock();
    expect(times.at(-1)!).toBeLessThanOrEqual(now);
    expect(times.at(-1)!).toBeGreaterThan(now - 1_000);
  });

  it("a change's bucket and meta come before the first watermark past its commit", async () => {
    const address = ethAddress();
    const { status, data } = await call("POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: [address] });
    expect(status).toBe(201);
    const committed = await registryClock();
    const id = data.id as number;
    const watermark = await firstWatermarkAfter(committed);
    const version = Number(metasOf(id).at(-1)?.version);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeGreaterThanOrEqual(0);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeLessThan(watermark);
    expect(positionOf((m) => isWebhookMeta(m) && m.webhook_id === id && m.version === version)).toBeLessThan(watermark);

    const added = ethAddress();
    expect((await call("POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [added] })).status).toBe(200);
    const after = await firstWatermarkAfter(await registryClock());
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(added))).toBeGreaterThanOrEqual(0);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(added))).toBeLessThan(after);
  });

  it("while a webhook's change stays queued (its relay held off) watermarks keep coming and never pass the change's time; once relayed, the change precedes the next one", async () => {
    const { rows } = await client.query<{ id: string }>(
      `insert into delivery.webhooks (account_id, coin, webhook_url, secret, is_active) values ($1, 'ETH', $2, 'whsec_00', 1) returning id`,
      [ACCOUNT, URL_OK],
    );
    const id = Number(rows[0]!.id);
    // Another relay holds the webhook: this one's rounds skip it and its rows stay queued.
    const holder = new pg.Client({ connectionString: database.connectionString });
    await holder.connect();
    await holder.query("select pg_advisory_lock($1, $2)", [RELAY_LOCK_NAMESPACE, id]);
    try {
      const address = ethAddress();
      const from = feed.length;
      expect((await call("POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [address] })).status).toBe(200);
      const queued = (
        await client.query<{ since: Date }>("select min(created_at) as since from delivery.webhook_changes where webhook_id = $1", [id])
      ).rows[0]!.since.getTime();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The publisher keeps ticking, and stops exactly at the queued change's time (a repeated
      // watermark has the same message id, so the stream stores it once).
      const held = watermarkTimes(from);
      expect(Math.max(...held)).toBe(queued);
      expect(feed.some((m) => isAddressBucket(m) && m.webhook_id === id)).toBe(false);

      await holder.query("select pg_advisory_unlock($1, $2)", [RELAY_LOCK_NAMESPACE, id]);
      const released = await firstWatermarkAfter(queued);
      expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeGreaterThanOrEqual(0);
      expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeLessThan(released);
      expect(positionOf((m) => isWebhookMeta(m) && m.webhook_id === id)).toBeLessThan(released);
    } finally {
      await holder.end();
    }
  });
});

describe("since on feed messages", () => {
  it("an address added through the API: its bucket's since lies between just before the request and the answer; a new webhook's meta carries its creation time", async () => {
    let before = await registryClock();
    const first = ethAddress();
    const { data } = await call("POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: [first] });
    let answered = await registryClock();
    const id = data.id as number;
    const created = Date.parse((await bucketWith(id, first)).since!);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(answered);
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(Date.parse(metasOf(id)[0]!.since!)).toBe(created);

    before = await registryClock();
    const added = ethAddress();
    await call("POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [added] });
    answered = await registryClock();
    const since = Date.parse((await bucketWith(id, added)).since!);
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(answered);
    // Adding addresses does not start the webhook being watched: its meta has no since.
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(2);
    expect(metasOf(id)[1]!.since).toBeUndefined();
  });

  it("an address issued ten minutes ago through a named key is watched since its issuance, to the millisecond", async () => {
    const key = 501;
    const listed = ethAddress();
    const { data } = await call("POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: [listed], xpub_ids: [key] });
    const id = data.id as number;
    await bucketWith(id, listed);
    const issuedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const issued = ethAddress();
    await bus.publish(addressIssued, { account_id: ACCOUNT, xpub_id: key, coin: "ETH", address: issued, index: 0, issued_at: issuedAt });
    expect((await bucketWith(id, issued)).since).toBe(issuedAt);

    // The next version of that bucket (its only one: a small webhook) still says so: the stream
    // keeps only the newest message per bucket, so a scanner that read neither learns it from this one.
    const next = ethAddress();
    await call("POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [next] });
    const after = await bucketWith(id, next);
    expect(after.addresses).toContain(issued);
    expect(after.since).toBe(issuedAt);
  });

  it("a webhook activated again carries since (the activation's time); deactivating and other changes do not", async () => {
    const { data } = await call("POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: [ethAddress()],
      is_active: false,
    });
    const id = data.id as number;
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(1);
    expect(metasOf(id)[0]).toMatchObject({ is_active: false });
    expect(metasOf(id)[0]!.since).toBeUndefined();

    const before = await registryClock();
    await call("PUT", `/api/v1/webhooks/${id}`, { is_active: true });
    const answered = await registryClock();
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(2);
    const activated = metasOf(id)[1]!;
    expect(activated.is_active).toBe(true);
    expect(Date.parse(activated.since!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(activated.since!)).toBeLessThanOrEqual(answered);

    await call("PUT", `/api/v1/webhooks/${id}`, { is_active: true, confirmations: 3 });
    await call("PUT", `/api/v1/webhooks/${id}`, { is_active: false });
    await expect.poll(() => metasOf(id).at(-1)?.is_active, { timeout: 10_000 }).toBe(false);
    expect(
      metasOf(id)
        .slice(2)
        .map((m) => m.since),
    ).toEqual(
      metasOf(id)
        .slice(2)
        .map(() => undefined),
    );
  });
});

describe("the watermark after a relay round", () => {
  it("follows a published change at once, not at the next tick", async () => {
    const slowTicks = await createTestDatabase();
    const namespace = `u${randomBytes(4).toString("hex")}`;
    const service = await startTestDelivery(slowTicks.connectionString, {
      NATS_URL,
      NATS_NAMESPACE: namespace,
      WATCH_WATERMARK_INTERVAL_MS: "600000",
    });
    const reader = await connectBus({ url: NATS_URL, name: "watch-feed-times-test", logger: silentLogger, namespace });
    await reader.ensureStreams([webhookChanged, webhookAddresses]);
    const seen: WebhookFeedMessage[] = [];
    const consumption = await reader.consume(webhookFeed, {
      durable: "after-round",
      maxAckPending: 1,
      handle: async (message) => void seen.push(message),
    });
    try {
      // The start's first watermark, then nothing for ten minutes unless a round publishes.
      await expect.poll(() => seen.filter(isWatermark).length, { timeout: 10_000 }).toBe(1);
      const response = await fetch(`${service.url}/api/v1/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json", [ACCOUNT_ID_HEADER]: String(ACCOUNT) },
        body: JSON.stringify({ coin: "ETH", webhook_url: URL_OK, addresses: [ethAddress()] }),
      });
      expect(response.status).toBe(201);
      const answered = Date.now();
      await expect.poll(() => seen.filter(isWatermark).length, { timeout: 5_000 }).toBe(2);
      expect(Date.now() - answered).toBeLessThan(3_000);
      expect(seen.findIndex((m) => isWebhookMeta(m))).toBeLessThan(seen.findLastIndex((m) => isWatermark(m)));
    } finally {
      await consumption.stop();
      await reader.close();
      await service.close();
      await slowTicks.drop();
    }
  });
});
