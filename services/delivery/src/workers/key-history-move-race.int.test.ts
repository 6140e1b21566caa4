/**
 * A key's history read as its old account just before the operator moved it, and recorded after the
 * registry applied the move, over a real Postgres: the addresses are the new holder's, so the old
 * account's webhooks do not get them back. Without the holder check the page was recorded as the
 * old account's and watched on its webhooks.
 */
import { silentLogger } from "@chaingate/testing";
import { expect } from "vitest";
import { applyKeyMove } from "../infra/apply-key-move.ts";
import type { HistoryEntry, KeyRef } from "../infra/read-key-history.ts";
import { createWebhookRepository } from "../infra/webhook-repository.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { startKeyHistoryBackfill } from "./key-history-backfill.ts";

const [ALICE, BOB] = [5, 6];
const KEY = 4_242;
const HISTORY = ["0x" + "a".repeat(40), "0x" + "b".repeat(40)];

const it = deliveryTest;

it("a history page read before the move and recorded after it goes to the new holder", async ({ deliveryDb: db }) => {
  const repository = createWebhookRepository(db.db);
  const webhook = (accountId: number) =>
    repository.create(accountId, {
      coin: "ETH",
      webhook_url: "http://93.184.216.34/",
      secret: "whsec_00",
      is_active: true,
      xpub_ids: [KEY],
      confirmations: 1,
      include_tokens: false,
      addresses: ["0x" + String(accountId).repeat(40).slice(0, 40)],
    });
  const [alices, bobs] = [await webhook(ALICE), await webhook(BOB)];

  // The xpub service answers Alice's read with the history as it was; the move lands before the page is recorded.
  async function* readHistory(key: KeyRef): AsyncIterable<HistoryEntry[]> {
    if (key.account_id !== ALICE) return;
    const page = HISTORY.map((address, index) => ({ address, index, issued_at: new Date() }));
    await db.db.transaction().execute((trx) =>
      applyKeyMove(trx, {
        move_id: 1,
        xpub_id: KEY,
        coin: "ETH",
        to_account_id: BOB,
        next_index: HISTORY.length,
        moved_at: new Date().toISOString(),
      }),
    );
    yield page;
  }
  const backfill = startKeyHistoryBackfill({ db: db.db, readHistory, logger: silentLogger, onChange: () => {} });
  try {
    await backfill.drain();
    await backfill.drain();
  } finally {
    await backfill.stop();
  }

  const addresses = async (id: number) => {
    const all: string[] = [];
    for await (const chunk of repository.addressChunks(id)) all.push(...chunk);
    return all.filter((address) => HISTORY.includes(address)).sort();
  };
  const owners = await db.db.selectFrom("issued_addresses").select("account_id").distinct().where("xpub_id", "=", KEY).execute();
  expect(owners).toEqual([{ account_id: BOB }]);
  expect(await addresses(alices.id)).toEqual([]);
  expect(await addresses(bobs.id)).toEqual(HISTORY);
});
