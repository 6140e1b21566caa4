/**
 * A key the operator moves to its rightful account (issue #27) takes its addresses along in the
 * registry, over a real Postgres and NATS: the new account's webhooks that name the record watch
 * every address it issued, those from before the move too, and are notified of transfers to them;
 * the old account's stop watching the ones they had only through the key. End to end with the real
 * xpub service and its operator CLI; then, with events published by hand, an `address.issued` that
 * arrives after the move it preceded, and moves that are redelivered or arrive out of order.
 */
import { randomBytes } from "node:crypto";
import { addressIssued, keyMoved, transferMatched, type Coin, type EventPayload } from "@chaingate/contracts";
import { runXpubAdmin, startTestXpub } from "@chaingate/xpub/testing";
import type { Kysely } from "kysely";
import { describe, expect } from "vitest";
import { ADDRESS_ISSUED_CONSUMER, type DeliveryService } from "./create-delivery-service.ts";
import { applyKeyMove } from "./infra/apply-key-move.ts";
import type { DeliveryDatabase } from "./infra/database-schema.ts";
import { callAsAccount, startTestDelivery, transferFor, type WatchFeedObserver } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

/** SLIP-0132's account zpub of the BIP84 test mnemonic (also the xpub service's fixture). */
const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
const LISTED = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const URL_OK = "http://93.184.216.34/hook";
const [ALICE, BOB, CAROL] = [31, 32, 33];
/** Keys and moves published by hand: far from the ids the real xpub service gives. */
let nextKey = 900_000;
let nextMove = 1_000_000;
let nextIndex = 0;
const POLL = { timeout: 20_000 };

/** The registry under test: the service (reading key histories from the xpub service), its watch feed, its tables. */
interface Registry {
  delivery: DeliveryService;
  observer: WatchFeedObserver;
  db: Kysely<DeliveryDatabase>;
}

deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

const it = deliveryTest.extend<{ xpubService: Awaited<ReturnType<typeof startTestXpub>>; registry: Registry }>({
  // One namespace: the registry hears the xpub service's address.issued and key.moved.
  xpubService: [
    async ({ database, bus }, use) => {
      const xpub = await startTestXpub(database.connectionString, bus.env);
      try {
        await use(xpub);
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
  registry: [
    async ({ database, deliveryEnv, xpubService, watchFeed, deliveryDb }, use) => {
      const delivery = await startTestDelivery(database.connectionString, { ...deliveryEnv, XPUB_URL: xpubService.url });
      try {
        await use({ delivery, observer: watchFeed, db: deliveryDb.db });
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
});

const request = (base: string, method: string, path: string, accountId: number, body?: unknown) =>
  callAsAccount<{ data?: Record<string, unknown> } & Record<string, unknown>>(base, method, path, accountId, body);
async function createWebhook(
  { delivery }: Registry,
  accountId: number,
  coin: Coin,
  addresses: string[],
  xpubIds: number[],
  url = URL_OK,
): Promise<number> {
  const created = await request(delivery.url, "POST", "/api/v1/webhooks", accountId, {
    coin,
    webhook_url: url,
    addresses,
    xpub_ids: xpubIds,
  });
  expect(created.status).toBe(201);
  return created.body.data!.id as number;
}
const watched = async ({ delivery }: Registry, id: number, accountId: number) =>
  ((await request(delivery.url, "GET", `/api/v1/webhooks/${id}`, accountId)).body.data!.addresses as string[]).toSorted();
const sorted = (...addresses: string[]) => addresses.toSorted();
const bodiesAt = (receiver: { received: Array<{ path: string; body: string }> }, path: string) =>
  receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Record<string, unknown> & { sequence: number });
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;

/** Publishes `address.issued` as the xpub service does and waits until the registry consumed it. */
async function issue(
  { observer }: Registry,
  payload: Omit<EventPayload<typeof addressIssued>, "issued_at" | "index"> & { index?: number },
): Promise<void> {
  await observer.bus.publish(addressIssued, { index: nextIndex++, issued_at: new Date().toISOString(), ...payload });
  await expect
    .poll(async () => (await observer.bus.consumerProgress(addressIssued, ADDRESS_ISSUED_CONSUMER)).pending, { timeout: 10_000 })
    .toBe(0);
}
function move(xpubId: number, from: number, to: number, nextIndexAtMove: number, moveId = nextMove++): EventPayload<typeof keyMoved> {
  return {
    move_id: moveId,
    xpub_id: xpubId,
    coin: "ETH",
    from_account_id: from,
    to_account_id: to,
    next_index: nextIndexAtMove,
    moved_at: new Date().toISOString(),
  };
}
const holderOf = (registry: Registry, xpubId: number) =>
  registry.db.selectFrom("key_holders").select(["account_id", "move_id"]).where("xpub_id", "=", xpubId).executeTakeFirst();
const ownersOf = async (registry: Registry, xpubId: number) =>
  (await registry.db.selectFrom("issued_addresses").select("account_id").distinct().where("xpub_id", "=", xpubId).execute()).map(
    (row) => row.account_id,
  );

describe("a key moved to another account", () => {
  it("end to end: the new account's webhooks watch every address issued before the move and are notified; the old one's stop", async ({
    registry,
    xpubService,
    receiver,
    database,
    busConnection,
  }) => {
    const { delivery, observer } = registry;
    const { id } = (await request(xpubService.url, "POST", "/api/v1/btc/xpub", ALICE, { xpub: ZPUB })).body as { id: number };
    const issued: string[] = [];
    for (let i = 0; i < 3; i++)
      issued.push((await request(xpubService.url, "POST", `/api/v1/btc/xpub/${id}/address`, ALICE)).body.address as string);
    // Alice lists one of them herself: that one she keeps.
    const alices = await createWebhook(registry, ALICE, "BTC", [issued[0]!], [id], `${receiver.url}/alice`);
    await expect.poll(() => watched(registry, alices, ALICE), POLL).toEqual(sorted(...issued));
    // Bob names the record before it is his: nothing, as for any other account's record.
    const bobsEarly = await createWebhook(registry, BOB, "BTC", [LISTED], [id]);
    await delivery.drainKeyHistories();
    expect(await watched(registry, bobsEarly, BOB)).toEqual([LISTED]);

    const moved = await runXpubAdmin(database.connectionString, "keys", "move", "--id", String(id), "--to-account", String(BOB));
    expect(moved.code).toBe(0);
    const bobs = await createWebhook(registry, BOB, "BTC", [LISTED], [id], `${receiver.url}/bob`);

    // The xpub service relays the move on its own; each address once, however it arrived (move, history).
    await expect.poll(() => watched(registry, bobs, BOB), POLL).toEqual(sorted(LISTED, ...issued));
    await expect.poll(() => watched(registry, bobsEarly, BOB), POLL).toEqual(sorted(LISTED, ...issued));
    await expect.poll(() => watched(registry, alices, ALICE), POLL).toEqual([issued[0]]);
    // What the scanner matches against: the watch feed.
    await expect.poll(() => observer.stateOf(bobs).addresses, POLL).toEqual(sorted(LISTED, ...issued));
    await expect.poll(() => observer.stateOf(alices).addresses, POLL).toEqual([issued[0]]);
    await expect.poll(() => ownersOf(registry, id), POLL).toEqual([BOB]);
    await delivery.drainKeyHistories();
    expect(await watched(registry, bobs, BOB)).toEqual(sorted(LISTED, ...issued));

    // A deposit to an address issued before the move is Bob's notification. It names the key that
    // issued the address and its index (the second issued); one to an address listed by hand, none.
    const paid = transferFor(bobs, "BTC", { to: issued[1]!, watched_address: issued[1]! });
    const listedPaid = transferFor(bobs, "BTC", { to: LISTED, watched_address: LISTED });
    await busConnection.publish(transferMatched, paid);
    await busConnection.publish(transferMatched, listedPaid);
    await expect.poll(() => bodiesAt(receiver, "/bob").length, POLL).toBe(2);
    // Published without direction and chain (as before the scanner said them): completed by delivery.
    const common = { version: 1, direction: "in", chain: null };
    expect(bodiesAt(receiver, "/bob").toSorted((a, b) => a.sequence - b.sequence)).toEqual([
      expect.objectContaining({ ...common, event_id: paid.event_id, watched_address: issued[1], xpub: { id, index: 1 } }),
      expect.objectContaining({ ...common, event_id: listedPaid.event_id, xpub: null }),
    ]);

    // Issued after the move: Bob's alone.
    const later = (await request(xpubService.url, "POST", `/api/v1/btc/xpub/${id}/address`, BOB)).body.address as string;
    await expect.poll(() => watched(registry, bobs, BOB), POLL).toEqual(sorted(LISTED, ...issued, later));
    expect(await watched(registry, alices, ALICE)).toEqual([issued[0]]);
  });

  it("an address.issued published before the move and consumed after it is recorded as the new holder's", async ({ registry }) => {
    const { observer } = registry;
    const key = nextKey++;
    const [alicesOwn, bobsOwn] = [ethAddress(), ethAddress()];
    const alices = await createWebhook(registry, ALICE, "ETH", [alicesOwn], [key]);
    const bobs = await createWebhook(registry, BOB, "ETH", [bobsOwn], [key]);
    const first = ethAddress();
    await issue(registry, { account_id: ALICE, xpub_id: key, coin: "ETH", address: first, index: 0 });
    expect(await watched(registry, alices, ALICE)).toEqual(sorted(alicesOwn, first));

    await observer.bus.publish(keyMoved, move(key, ALICE, BOB, 2));
    await expect.poll(() => watched(registry, bobs, BOB), POLL).toEqual(sorted(bobsOwn, first));
    // Index 1 was issued before the move (next index 2), published as Alice's, and arrives only now.
    const late = ethAddress();
    await issue(registry, { account_id: ALICE, xpub_id: key, coin: "ETH", address: late, index: 1 });
    const after = ethAddress();
    await issue(registry, { account_id: BOB, xpub_id: key, coin: "ETH", address: after, index: 2 });

    expect(await watched(registry, bobs, BOB)).toEqual(sorted(bobsOwn, first, late, after));
    expect(await watched(registry, alices, ALICE)).toEqual([alicesOwn]);
    expect(await ownersOf(registry, key)).toEqual([BOB]);
    await expect.poll(() => observer.stateOf(alices).addresses, POLL).toEqual([alicesOwn]);
  });

  it("A→B then B→C ends on C, and a redelivered A→B changes nothing", async ({ registry }) => {
    const { observer } = registry;
    const key = nextKey++;
    const { alices, bobs, carols, issued, own } = await keyOfAliceNamedByEveryone(registry, key);
    const [toBob, toCarol] = [move(key, ALICE, BOB, 3), move(key, BOB, CAROL, 3)];
    await observer.bus.publish(keyMoved, toBob);
    await expect.poll(() => watched(registry, bobs, BOB), POLL).toEqual(sorted(own.bob, ...issued));
    await observer.bus.publish(keyMoved, toCarol);
    await expect.poll(() => watched(registry, carols, CAROL), POLL).toEqual(sorted(own.carol, ...issued));
    await expect.poll(() => watched(registry, bobs, BOB), POLL).toEqual([own.bob]);

    // As a redelivery after a lost ack would apply it again.
    const versions = await versionsOf(registry, [alices, bobs, carols]);
    expect(await registry.db.transaction().execute((trx) => applyKeyMove(trx, toBob))).toEqual({ applied: false, changedWebhooks: 0 });
    expect(await versionsOf(registry, [alices, bobs, carols])).toEqual(versions);
    await expectOnCarol(registry, key, { alices, bobs, carols, issued, own }, toCarol.move_id);
  });

  it("B→C consumed before A→B (published out of order) ends on C too", async ({ registry }) => {
    const { observer } = registry;
    const key = nextKey++;
    const named = await keyOfAliceNamedByEveryone(registry, key);
    const [toBob, toCarol] = [move(key, ALICE, BOB, 3), move(key, BOB, CAROL, 3)];
    await observer.bus.publish(keyMoved, toCarol);
    await observer.bus.publish(keyMoved, toBob);
    await expect.poll(() => watched(registry, named.carols, CAROL), POLL).toEqual(sorted(named.own.carol, ...named.issued));
    await expect.poll(() => holderOf(registry, key), POLL).toEqual({ account_id: CAROL, move_id: toCarol.move_id });
    // The overtaken A→B was consumed too (it is older than the move applied): nothing of it shows.
    await expect.poll(async () => (await observer.bus.consumerProgress(keyMoved, "delivery-key-moves")).pending, POLL).toBe(0);
    await expectOnCarol(registry, key, named, toCarol.move_id);
  });
});

interface NamedKey {
  alices: number;
  bobs: number;
  carols: number;
  /** The key's three addresses, issued while Alice held it; Alice also lists the first herself. */
  issued: string[];
  own: { alice: string; bob: string; carol: string };
}

/** Alice's key with three addresses, named by a webhook of each of the three accounts. */
async function keyOfAliceNamedByEveryone(registry: Registry, key: number): Promise<NamedKey> {
  const issued = [ethAddress(), ethAddress(), ethAddress()];
  const own = { alice: ethAddress(), bob: ethAddress(), carol: ethAddress() };
  const alices = await createWebhook(registry, ALICE, "ETH", [own.alice, issued[0]!], [key]);
  const bobs = await createWebhook(registry, BOB, "ETH", [own.bob], [key]);
  const carols = await createWebhook(registry, CAROL, "ETH", [own.carol], [key]);
  for (const [index, address] of issued.entries()) await issue(registry, { account_id: ALICE, xpub_id: key, coin: "ETH", address, index });
  expect(await watched(registry, alices, ALICE)).toEqual(sorted(own.alice, ...issued));
  return { alices, bobs, carols, issued, own };
}

async function expectOnCarol(
  registry: Registry,
  key: number,
  { alices, bobs, carols, issued, own }: NamedKey,
  moveId: number,
): Promise<void> {
  expect(await holderOf(registry, key)).toEqual({ account_id: CAROL, move_id: moveId });
  expect(await ownersOf(registry, key)).toEqual([CAROL]);
  expect(await watched(registry, carols, CAROL)).toEqual(sorted(own.carol, ...issued));
  expect(await watched(registry, bobs, BOB)).toEqual([own.bob]);
  // The address Alice listed herself stays on her list; the others left with the key.
  expect(await watched(registry, alices, ALICE)).toEqual(sorted(own.alice, issued[0]!));
  await expect.poll(() => registry.observer.stateOf(carols).addresses, POLL).toEqual(sorted(own.carol, ...issued));
  await expect.poll(() => registry.observer.stateOf(bobs).addresses, POLL).toEqual([own.bob]);
}

async function versionsOf(registry: Registry, ids: number[]): Promise<string[]> {
  const rows = await registry.db.selectFrom("webhooks").select(["id", "version"]).where("id", "in", ids).orderBy("id").execute();
  return rows.map((row) => row.version);
}
