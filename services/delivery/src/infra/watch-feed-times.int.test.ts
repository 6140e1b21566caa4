/**
 * The registry's times on the watch feed (issue 16, item 7), over a real Postgres and NATS: the
 * watermark (`webhook.watermark`: every change committed before its `registry_time` is in the
 * stream ahead of it) and `since` on bucket and meta messages (when their new addresses or the
 * webhook's activation took effect). Read in stream order, as the scanner reads the feed.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus } from "@chaingate/bus";
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
import { silentLogger, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import { describe, expect } from "vitest";
import type { DeliveryService } from "../create-delivery-service.ts";
import { callAsAccount, startTestDelivery } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { RELAY_LOCK_NAMESPACE } from "../workers/webhook-changed-relay.ts";

const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT = 7;
const WATERMARK_INTERVAL_MS = 100;
/** The WEBHOOK_FEED stream as the previous release created it. */
const OLD_FEED_SUBJECTS = ["webhook.changed.*", "webhook.addresses.*.*.*"];

/** The feed in stream order (read by the `upgraded` fixture's consumer). */
const feed: WebhookFeedMessage[] = [];

deliveryTest.scoped({ deliverySettings: { WATCH_WATERMARK_INTERVAL_MS: String(WATERMARK_INTERVAL_MS) } });

/**
 * The feed's stream as the previous release created it, read from the start into `feed`; then the
 * service started over it, running for the whole file. `bus` is the reading connection, with
 * `address.issued`'s stream.
 */
const it = deliveryTest.extend<{ upgraded: { delivery: DeliveryService; bus: Bus } }>({
  upgraded: [
    async ({ bus, database, deliveryEnv }, use) => {
      const connection = await connectBus({ url: bus.url, name: "watch-feed-times-test", logger: silentLogger, namespace: bus.namespace });
      const oldOptions = { ...WEBHOOK_FEED_STREAM_OPTIONS, subjects: OLD_FEED_SUBJECTS };
      await connection.ensureStreams([
        { ...webhookChanged, streamOptions: oldOptions },
        { ...webhookAddresses, streamOptions: oldOptions },
      ]);
      await connection.ensureStreams([addressIssued]);
      // Read without ensuring the feed's streams here: only the service's own start may add the subject.
      const reading = await connection.consume(webhookFeed, {
        durable: "times-test",
        maxAckPending: 1,
        handle: async (message) => void feed.push(message),
      });
      const delivery = await startTestDelivery(database.connectionString, deliveryEnv);
      try {
        await use({ delivery, bus: connection });
      } finally {
        await reading.stop();
        await delivery.close();
        await connection.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

async function call(
  delivery: DeliveryService,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const { status, body: answer } = await callAsAccount<{ data?: Record<string, unknown> }>(delivery.url, method, path, ACCOUNT, body);
  // An empty body is {} (as callAsAccount reads it), and so is its data.
  return { status, data: Object.keys(answer).length ? (answer.data as Record<string, unknown>) : {} };
}
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;
/** The registry database's clock now (milliseconds, as the feed carries it). */
async function registryClock(database: TestDatabase): Promise<number> {
  return (await database.query<{ now: Date }>("select clock_timestamp() as now"))[0]!.now.getTime();
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
  it("reaches a stream the previous release created (the service adds webhook.watermark at start) and arrives periodically while idle, never going back", async ({
    database,
  }) => {
    await expect.poll(() => watermarkTimes().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const from = feed.length;
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const times = watermarkTimes(from);
    // 10 ticks in that second; a loaded machine may miss a few.
    expect(times.length).toBeGreaterThanOrEqual(5);
    expect(times.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / WATERMARK_INTERVAL_MS) + 2);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    const now = await registryClock(database);
    expect(times.at(-1)!).toBeLessThanOrEqual(now);
    expect(times.at(-1)!).toBeGreaterThan(now - 1_000);
  });

  it("a change's bucket and meta come before the first watermark past its commit", async ({ upgraded: { delivery }, database }) => {
    const address = ethAddress();
    const { status, data } = await call(delivery, "POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: [address] });
    expect(status).toBe(201);
    const committed = await registryClock(database);
    const id = data.id as number;
    const watermark = await firstWatermarkAfter(committed);
    const version = Number(metasOf(id).at(-1)?.version);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeGreaterThanOrEqual(0);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(address))).toBeLessThan(watermark);
    expect(positionOf((m) => isWebhookMeta(m) && m.webhook_id === id && m.version === version)).toBeLessThan(watermark);

    const added = ethAddress();
    expect((await call(delivery, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [added] })).status).toBe(200);
    const after = await firstWatermarkAfter(await registryClock(database));
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(added))).toBeGreaterThanOrEqual(0);
    expect(positionOf((m) => isAddressBucket(m) && m.webhook_id === id && m.addresses.includes(added))).toBeLessThan(after);
  });

  it("while a webhook's change stays queued (its relay held off) watermarks keep coming and never pass the change's time; once relayed, the change precedes the next one", async ({
    upgraded: { delivery },
    database,
  }) => {
    const rows = await database.query<{ id: string }>(
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
      expect((await call(delivery, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [address] })).status).toBe(200);
      const queued = (
        await database.query<{ since: Date }>("select min(created_at) as since from delivery.webhook_changes where webhook_id = $1", [id])
      )[0]!.since.getTime();
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
  it("an address added through the API: its bucket's since lies between just before the request and the answer; a new webhook's meta carries its creation time", async ({
    upgraded: { delivery },
    database,
  }) => {
    let before = await registryClock(database);
    const first = ethAddress();
    const { data } = await call(delivery, "POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: [first] });
    let answered = await registryClock(database);
    const id = data.id as number;
    const created = Date.parse((await bucketWith(id, first)).since!);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(answered);
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(Date.parse(metasOf(id)[0]!.since!)).toBe(created);

    before = await registryClock(database);
    const added = ethAddress();
    await call(delivery, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [added] });
    answered = await registryClock(database);
    const since = Date.parse((await bucketWith(id, added)).since!);
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(answered);
    // Adding addresses does not start the webhook being watched: its meta has no since.
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(2);
    expect(metasOf(id)[1]!.since).toBeUndefined();
  });

  it("an address issued ten minutes ago through a named key is watched since its issuance, to the millisecond", async ({
    upgraded: { delivery, bus },
  }) => {
    const key = 501;
    const listed = ethAddress();
    const { data } = await call(delivery, "POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: [listed],
      xpub_ids: [key],
    });
    const id = data.id as number;
    await bucketWith(id, listed);
    const issuedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const issued = ethAddress();
    await bus.publish(addressIssued, { account_id: ACCOUNT, xpub_id: key, coin: "ETH", address: issued, index: 0, issued_at: issuedAt });
    expect((await bucketWith(id, issued)).since).toBe(issuedAt);

    // The next version of that bucket (its only one: a small webhook) still says so: the stream
    // keeps only the newest message per bucket, so a scanner that read neither learns it from this one.
    const next = ethAddress();
    await call(delivery, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: [next] });
    const after = await bucketWith(id, next);
    expect(after.addresses).toContain(issued);
    expect(after.since).toBe(issuedAt);
  });

  it("a webhook activated again carries since (the activation's time); deactivating and other changes do not", async ({
    upgraded: { delivery },
    database,
  }) => {
    const { data } = await call(delivery, "POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: [ethAddress()],
      is_active: false,
    });
    const id = data.id as number;
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(1);
    expect(metasOf(id)[0]).toMatchObject({ is_active: false });
    expect(metasOf(id)[0]!.since).toBeUndefined();

    const before = await registryClock(database);
    await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { is_active: true });
    const answered = await registryClock(database);
    await expect.poll(() => metasOf(id).length, { timeout: 10_000 }).toBe(2);
    const activated = metasOf(id)[1]!;
    expect(activated.is_active).toBe(true);
    expect(Date.parse(activated.since!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(activated.since!)).toBeLessThanOrEqual(answered);

    await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { is_active: true, confirmations: 3 });
    await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { is_active: false });
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
