/**
 * A key's addresses issued before the registry recorded `address.issued` (a deployment upgraded
 * from an earlier release, or events still travelling) are read from the real xpub service's history
 * and watched on the webhooks that name the key, since the key was named; over a real Postgres and
 * NATS. The xpub service publishes on a NATS namespace the registry does not read, so the history is
 * the only way the registry learns these addresses.
 */
import { isAddressBucket, keyMoved, type WebhookFeedMessage } from "@chaingate/contracts";
import { testNamespace } from "@chaingate/testing";
import { freshAccountKey, runXpubAdmin, startTestXpub } from "@chaingate/xpub/testing";
import { describe, expect } from "vitest";
import type { DeliveryService } from "../create-delivery-service.ts";
import { callAsAccount, startTestDelivery } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

/** SLIP-0132's account zpub of the BIP84 test mnemonic (also the xpub service's fixture). */
const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
const LISTED = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const URL_OK = "http://93.184.216.34/hook";
const [OWNER, STRANGER, RIGHTFUL] = [11, 12, 13];

const request = (base: string, method: string, path: string, accountId: number, body?: unknown) =>
  callAsAccount<{ data?: Record<string, unknown> } & Record<string, unknown>>(base, method, path, accountId, body);
const watched = async (delivery: DeliveryService, id: number, accountId = OWNER) =>
  ((await request(delivery.url, "GET", `/api/v1/webhooks/${id}`, accountId)).body.data!.addresses as string[]).toSorted();

interface HistoryFixtures {
  /** The xpub service over the same database; its events go to a namespace nobody here reads: the registry never hears of them. */
  xpubService: Awaited<ReturnType<typeof startTestXpub>>;
  /** OWNER's key (ZPUB) with the three addresses it issued. */
  ownersKey: { keyId: number; issued: string[] };
  /** The delivery service over the file's database and bus, reading key histories from the xpub service. */
  deliveryReadingXpub: DeliveryService;
  /** Another delivery service over the same database and bus, for one test, whose xpub service cannot be reached. */
  deliveryXpubUnreachable: DeliveryService;
}

const it = deliveryTest.extend<HistoryFixtures>({
  xpubService: [
    async ({ database, bus }, use) => {
      const xpub = await startTestXpub(database.connectionString, { ...bus.env, NATS_NAMESPACE: testNamespace() });
      try {
        await use(xpub);
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
  ownersKey: [
    async ({ xpubService }, use) => {
      const registered = await request(xpubService.url, "POST", "/api/v1/btc/xpub", OWNER, { xpub: ZPUB });
      const keyId = registered.body.id as number;
      const issued: string[] = [];
      for (let i = 0; i < 3; i++)
        issued.push((await request(xpubService.url, "POST", `/api/v1/btc/xpub/${keyId}/address`, OWNER)).body.address as string);
      await use({ keyId, issued });
    },
    { scope: "file" },
  ],
  deliveryReadingXpub: [
    async ({ database, deliveryEnv, xpubService }, use) => {
      const delivery = await startTestDelivery(database.connectionString, { ...deliveryEnv, XPUB_URL: xpubService.url });
      try {
        await use(delivery);
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
  deliveryXpubUnreachable: async ({ database, deliveryEnv }, use) => {
    const unreachable = await startTestDelivery(database.connectionString, {
      ...deliveryEnv,
      // Port 1: nothing listens there, and no test server can take it meanwhile (a "free" port can be
      // bound by a parallel test's server before this runs, which then holds the call open).
      XPUB_URL: "http://127.0.0.1:1",
    });
    try {
      await use(unreachable);
    } finally {
      await unreachable.close();
    }
  },
});

describe("the addresses a key issued before the registry recorded them", () => {
  it("are read from the xpub service and watched on the webhook that names the key, since it was named", async ({
    ownersKey: { keyId, issued },
    deliveryReadingXpub: delivery,
    watchFeed: observer,
    database,
  }) => {
    expect(issued).toHaveLength(3);
    const created = await request(delivery.url, "POST", "/api/v1/webhooks", OWNER, {
      coin: "BTC",
      webhook_url: URL_OK,
      addresses: [LISTED],
      xpub_ids: [keyId],
    });
    expect(created.status).toBe(201);
    const id = created.body.data!.id as number;
    const named = (
      await database.query<{ requested_at: Date }>(
        "select requested_at from delivery.key_backfills where xpub_id = $1 and account_id = $2",
        [keyId, OWNER],
      )
    )[0]!.requested_at;

    await expect.poll(() => watched(delivery, id), { timeout: 15_000 }).toEqual([LISTED, ...issued].sort());
    await expect.poll(() => observer.stateOf(id).addresses, { timeout: 10_000 }).toEqual([LISTED, ...issued].sort());
    // The feed says they are watched since the key was named, not since the history arrived.
    const buckets = observer
      .buckets(id)
      .filter((b: WebhookFeedMessage) => isAddressBucket(b) && issued.some((a) => b.addresses.includes(a)));
    expect(Math.min(...buckets.map((b) => Date.parse(b.since!)))).toBe(named.getTime());
    // A PUT of the list keeps them; removing the key drops them.
    expect(
      (
        (await request(delivery.url, "PUT", `/api/v1/webhooks/${id}`, OWNER, { addresses: [LISTED] })).body.data!.addresses as string[]
      ).toSorted(),
    ).toEqual([LISTED, ...issued].sort());
    expect((await request(delivery.url, "PUT", `/api/v1/webhooks/${id}`, OWNER, { xpub_ids: [] })).body.data!.addresses).toEqual([LISTED]);
  });

  it("a key of another account brings nothing", async ({ ownersKey: { keyId }, deliveryReadingXpub: delivery }) => {
    const created = await request(delivery.url, "POST", "/api/v1/webhooks", STRANGER, {
      coin: "BTC",
      webhook_url: URL_OK,
      addresses: [LISTED],
      xpub_ids: [keyId],
    });
    const id = created.body.data!.id as number;
    await delivery.drainKeyHistories();
    expect(await watched(delivery, id, STRANGER)).toEqual([LISTED]);
  });

  it("while the xpub service cannot be reached the key stays queued, and nothing else is held back", async ({
    ownersKey: { keyId },
    deliveryXpubUnreachable: unreachable,
    database,
  }) => {
    const created = await request(unreachable.url, "POST", "/api/v1/webhooks", OWNER + 10, {
      coin: "BTC",
      webhook_url: URL_OK,
      addresses: [LISTED],
      xpub_ids: [keyId],
    });
    expect(created.status).toBe(201);
    await expect(unreachable.drainKeyHistories()).rejects.toThrow(/unreachable/);
    const rows = await database.query("select done_at from delivery.key_backfills where xpub_id = $1 and account_id = $2", [
      keyId,
      OWNER + 10,
    ]);
    expect(rows).toEqual([{ done_at: null }]);
  });
});

describe("the history of a key moved to another account", () => {
  it("after a key moved, the new account's webhook that named it before gets its whole history, which only the xpub service knew", async ({
    xpubService: xpub,
    deliveryReadingXpub: delivery,
    watchFeed: observer,
    database,
  }) => {
    // A key the registry never heard of: its addresses are in no event it reads, nor in any history read so far.
    const moving = (await request(xpub.url, "POST", "/api/v1/btc/xpub", OWNER, { xpub: freshAccountKey() })).body.id as number;
    const history: string[] = [];
    for (let i = 0; i < 2; i++)
      history.push((await request(xpub.url, "POST", `/api/v1/btc/xpub/${moving}/address`, OWNER)).body.address as string);
    const early = (
      await request(delivery.url, "POST", "/api/v1/webhooks", RIGHTFUL, {
        coin: "BTC",
        webhook_url: URL_OK,
        addresses: [LISTED],
        xpub_ids: [moving],
      })
    ).body.data!.id as number;
    // Not its key yet: its history read finds nothing, and the read is done.
    await delivery.drainKeyHistories();
    expect(await watched(delivery, early, RIGHTFUL)).toEqual([LISTED]);

    const moved = await runXpubAdmin(database.connectionString, "keys", "move", "--id", String(moving), "--to-account", String(RIGHTFUL));
    expect(moved.code).toBe(0);
    // The xpub service publishes on a namespace the registry does not read: the move is told here by hand.
    const rows = await database.query<{ id: string; next_index: number; moved_at: Date }>(
      "select id, next_index, moved_at from xpub.key_moves where key_id = $1",
      [moving],
    );
    await observer.bus.ensureStreams([keyMoved]);
    await observer.bus.publish(keyMoved, {
      move_id: Number(rows[0]!.id),
      xpub_id: moving,
      coin: "BTC",
      from_account_id: OWNER,
      to_account_id: RIGHTFUL,
      next_index: rows[0]!.next_index,
      moved_at: rows[0]!.moved_at.toISOString(),
    });

    // The move queues the key's history again, read as the new account.
    await expect.poll(() => watched(delivery, early, RIGHTFUL), { timeout: 15_000 }).toEqual([LISTED, ...history].sort());
    await expect.poll(() => observer.stateOf(early).addresses, { timeout: 10_000 }).toEqual([LISTED, ...history].sort());
    await delivery.drainKeyHistories();
    expect(await watched(delivery, early, RIGHTFUL)).toEqual([LISTED, ...history].sort());
  });
});
