/**
 * The watch feed the registry publishes (`webhook.changed` metas and `webhook.addresses` buckets),
 * which the scanner builds its watch projection from, as changes at the service's internal edge make
 * it over a real Postgres and NATS, and as the next start relays what a stopped one left queued. The
 * registry's answers themselves: webhook-endpoints.int.test.ts.
 */
import { addressIssued, bucketHash, bucketOf, isAddressBucket, isWatermark, webhookAddresses } from "@chaingate/contracts";
import { describe, expect } from "vitest";
import { startTestDelivery } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { alice, bob, BTC, call, countRows, create, ETH, ISO, latestChange, URL_OK } from "../testing/webhook-registry-calls.ts";

const it = deliveryTest;

describe("the watch feed", () => {
  it("publishes the buckets a change touched and then the webhook's meta; a settings change publishes the meta alone", async ({
    edge,
    watchFeed: observer,
    bus,
  }) => {
    const { body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH] });
    const id = body.data!.id as number;
    await expect
      .poll(() => latestChange(observer, id), { timeout: 10_000 })
      .toEqual({
        webhook_id: id,
        coin: "ETH",
        is_active: true,
        watch: true,
        deleted: false,
        version: expect.any(Number),
        confirmations: 1,
        include_tokens: false,
        all_tokens: false,
        pending: false,
        address_count: 1,
        bucket_bits: 0,
        since: expect.stringMatching(ISO),
      });
    expect(observer.stateOf(id).addresses).toEqual([ETH.toLowerCase()]);
    const first = latestChange(observer, id)!.version;
    const ofWebhook = () => observer.messages.filter((m) => !isWatermark(m.payload) && m.payload.webhook_id === id);
    expect(ofWebhook().map((m) => m.subject.slice(bus.namespace.length + 1))).toEqual([
      `webhook.addresses.${id}.0.0`,
      `webhook.changed.${id}`,
    ]);
    expect(ofWebhook().map((m) => m.messageId)).toEqual([`webhook-addresses:${id}:0:0:${first}`, `webhook:${id}:${first}`]);
    await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { is_active: false });
    await expect.poll(() => latestChange(observer, id)?.is_active, { timeout: 10_000 }).toBe(false);
    expect(latestChange(observer, id)!.version).toBeGreaterThan(first);
    expect(ofWebhook().filter((m) => isAddressBucket(m.payload))).toHaveLength(1);
    const ids = ofWebhook().map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a deleted webhook publishes a final meta and its bucket messages are removed from the stream", async ({
    edge,
    watchFeed: observer,
    bus,
  }) => {
    const many = Array.from({ length: 3_000 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const { body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: many });
    const id = body.data!.id as number;
    // 3,000 addresses: level 2, four buckets.
    await expect.poll(() => observer.stateOf(id).addresses.length, { timeout: 10_000 }).toBe(3_000);
    expect(latestChange(observer, id)).toMatchObject({ bucket_bits: 2, address_count: 3_000 });
    const bucketSubjects = async () =>
      Object.keys(
        (await observer.bus.admin.streamInfo(webhookAddresses, { subjects: `webhook.addresses.${id}.>` })).state.subjects ?? {},
      ).sort();
    expect(await bucketSubjects()).toEqual([0, 1, 2, 3].map((b) => `${bus.namespace}.webhook.addresses.${id}.2.${b}`));
    expect((await call(edge, "DELETE", `/api/v1/webhooks/${id}`, alice)).status).toBe(204);
    await expect.poll(() => latestChange(observer, id)?.deleted, { timeout: 10_000 }).toBe(true);
    await expect.poll(bucketSubjects, { timeout: 10_000 }).toEqual([]);
  });

  it("adding one address to a large webhook publishes that address's bucket only, holding the bucket's whole list", async ({
    edge,
    watchFeed: observer,
  }) => {
    const many = Array.from({ length: 5_000 }, (_, i) => `0xc${(i + 1).toString(16).padStart(39, "0")}`);
    const { body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: many });
    const id = body.data!.id as number;
    await expect.poll(() => latestChange(observer, id)?.address_count, { timeout: 10_000 }).toBe(5_000);
    const bits = latestChange(observer, id)!.bucket_bits;
    expect(bits).toBe(3);
    const seen = observer.messages.length;
    const added = "0x" + "b".repeat(40);
    expect((await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, alice, { addresses: [added] })).body.data).toEqual({
      added: 1,
      total: 5_001,
    });
    await expect.poll(() => latestChange(observer, id)?.address_count, { timeout: 10_000 }).toBe(5_001);
    const after = observer.messages
      .slice(seen)
      .filter((m) => !isWatermark(m.payload) && m.payload.webhook_id === id)
      .map((m) => m.payload);
    const bucket = bucketOf(bucketHash(added), bits);
    expect(after.map((p) => (isAddressBucket(p) ? `bucket ${p.bucket}` : "meta"))).toEqual([`bucket ${bucket}`, "meta"]);
    const published = after[0]!;
    expect(isAddressBucket(published) && published.addresses).toEqual(
      [...many.filter((a) => bucketOf(bucketHash(a), bits) === bucket), added].sort(),
    );
    expect(observer.stateOf(id).addresses).toEqual([...many, added].sort());
  });
});

describe("the watch feed from issued addresses and after a stop", () => {
  it("auto-watch: an address.issued for a named xpub record is added to the account's webhook, not to another account's", async ({
    edge,
    watchFeed: observer,
  }) => {
    const { body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC], xpub_ids: [7] });
    const other = await create(edge, bob, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC], xpub_ids: [7] });
    const id = body.data!.id as number;
    const issued = "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3";
    await observer.bus.publish(addressIssued, {
      account_id: alice.accountId,
      xpub_id: 7,
      coin: "BTC",
      address: issued,
      index: 0,
      issued_at: new Date().toISOString(),
    });
    await expect
      .poll(
        async () => ((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data!.addresses as unknown as string[]).toSorted(),
        {
          timeout: 10_000,
        },
      )
      .toEqual([BTC, issued].sort());
    await expect.poll(() => observer.stateOf(id).addresses, { timeout: 10_000 }).toEqual([BTC, issued].sort());
    expect((await call(edge, "GET", `/api/v1/webhooks/${other.body.data!.id}`, bob)).body.data!.addresses).toEqual([BTC]);
  });

  it("nothing is lost when the service stops between commit and publish: the outbox is relayed by the next start", async ({
    delivery,
    deliveryEnv,
    database,
    watchFeed: observer,
  }) => {
    await delivery.close();
    // Committed while no relay runs: written straight into the tables as a crashed process would leave them.
    const rows = await database.query<{ id: string }>(
      `insert into delivery.webhooks (account_id, coin, webhook_url, secret, is_active) values ($1, 'BTC', $2, 'whsec_00', 1) returning id`,
      [alice.accountId, URL_OK],
    );
    const id = Number(rows[0]!.id);
    await database.query(`insert into delivery.webhook_changes (webhook_id) values ($1)`, [id]);
    const restarted = await startTestDelivery(database.connectionString, deliveryEnv);
    try {
      await expect
        .poll(() => latestChange(observer, id), { timeout: 10_000 })
        .toMatchObject({ webhook_id: id, is_active: true, deleted: false });
      expect(await countRows(database, "webhook_changes")).toBe(0);
    } finally {
      await restarted.close();
    }
  });
});
