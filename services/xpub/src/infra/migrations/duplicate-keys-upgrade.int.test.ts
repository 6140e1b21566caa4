/**
 * Upgrading a database where several accounts already registered one key (before the
 * one-account-per-key rule): the migration does not fail, the oldest registration keeps the key,
 * the later ones are named in a start-up log line and answer 409 instead of issuing the holder's
 * addresses. At the service's internal edge, over a real Postgres.
 */
import { Writable } from "node:stream";
import { migrateToLatest } from "@chaingate/db";
import { createLogger } from "@chaingate/logger";
import { internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { sql, type Kysely } from "kysely";
import { expect } from "vitest";
import vectors from "../../domain/fixtures/bip84-vectors.json" with { type: "json" };
import { bitcoinScheme } from "../../domain/key-scheme.ts";
import { startTestXpub } from "../../testing/index.ts";
import { xpubTest } from "../../testing/xpub-fixtures.ts";
import { XPUB_SCHEMA } from "../database-schema.ts";
import { moveKeyRecord } from "../move-key-record.ts";
import { keyMaterialOf } from "../xpub-repository.ts";
import { xpubMigrations } from "./index.ts";

const [ACCOUNT_0] = vectors.accounts;
const KEY = bitcoinScheme("mainnet").parse(ACCOUNT_0!.zpub);
const HELD =
  "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";
const ISSUES_NOTHING =
  "This record issues no addresses: its key is registered under another record. If the key is yours, ask the operator.";

/** Accounts the gateway would have authenticated. */
const accounts = { alice: { accountId: 1 }, bob: { accountId: 2 }, carol: { accountId: 3 }, dave: { accountId: 4 } };
type Ids = Record<"alice" | "bob" | "carol" | "daveEth", number>;

/** Records of one key from before the one-account-per-key rule, written on the schema before 0004. */
async function insertDuplicates(db: Kysely<unknown>): Promise<Ids> {
  // Bob's record has the lower id but alice registered first: age decides, not the id.
  const insert = async (account: number, chain: string, age: string) => {
    const { rows } = await sql<{ id: number }>`
      insert into extended_keys (account_id, chain, zpub, key_material, fingerprint, xpub_preview, created_at)
      values (${account}, ${chain}, ${KEY.source}, ${keyMaterialOf(KEY)}, ${KEY.fingerprint}, ${KEY.xpubPreview}, now() - ${age}::interval)
      returning id`.execute(db);
    return Number(rows[0]!.id);
  };
  const bob = await insert(accounts.bob.accountId, "BTC", "1 hour");
  const alice = await insert(accounts.alice.accountId, "BTC", "1 day");
  const carol = await insert(accounts.carol.accountId, "BTC", "1 minute");
  // The same key material under the other chain derives other addresses: not a duplicate.
  const daveEth = await insert(accounts.dave.accountId, "ETH", "1 minute");
  await sql`insert into issued_addresses (key_id, account_id, index, address, published_at) values (${bob}, ${accounts.bob.accountId}, 0, ${ACCOUNT_0!.addresses[0]!.mainnet}, now())`.execute(
    db,
  );
  await sql`update extended_keys set next_index = 1 where id = ${bob}`.execute(db);
  return { alice, bob, carol, daveEth };
}

/** The service started on that database (its migrations run then), its log lines kept. */
interface Upgraded {
  ids: Ids;
  log: Array<Record<string, unknown>>;
  edge: InternalEdge;
}

const it = xpubTest.extend<{ upgraded: Upgraded }>({
  upgraded: [
    async ({ database, xpubDb }, use) => {
      const db = xpubDb.db as unknown as Kysely<unknown>;
      // The schema as it was before the rule: the migrations before 0004.
      const before = Object.fromEntries(Object.entries(xpubMigrations).filter(([name]) => name < "0004"));
      await migrateToLatest(db, XPUB_SCHEMA, before);
      const ids = await insertDuplicates(db);
      const log: Array<Record<string, unknown>> = [];
      const destination = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) log.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      });
      const xpub = await startTestXpub(
        database.connectionString,
        { INTERNAL_TOKEN: TEST_INTERNAL_TOKEN },
        createLogger({ service: "xpub", destination, level: "info" }),
      );
      try {
        await use({ ids, log, edge: internalEdge(xpub) });
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
});

async function call(
  edge: InternalEdge,
  method: "GET" | "POST",
  path: string,
  as: { accountId: number },
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await edge.request(as.accountId, path, {
    method,
    headers: { accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

it("the migration keeps the oldest registration as the holder and flags the later ones of the same chain", async ({
  upgraded: { ids },
  xpubDb: connection,
}) => {
  const rows = await sql<{ id: string; duplicate_of: string | null }>`select id, duplicate_of from extended_keys order by id`.execute(
    connection.db,
  );
  const flagged = Object.fromEntries(rows.rows.map((row) => [Number(row.id), row.duplicate_of === null ? null : Number(row.duplicate_of)]));
  expect(flagged).toEqual({ [ids.bob]: ids.alice, [ids.alice]: null, [ids.carol]: ids.alice, [ids.daveEth]: null });
});

it("the service names the flagged records in a warning at start-up", ({ upgraded: { ids, log } }) => {
  const warning = log.find((line) => String(line.message).startsWith("xpub records share their key"));
  expect(warning).toMatchObject({
    records: [
      { id: ids.bob, account_id: accounts.bob.accountId, chain: "BTC", duplicate_of: ids.alice },
      { id: ids.carol, account_id: accounts.carol.accountId, chain: "BTC", duplicate_of: ids.alice },
    ],
  });
});

it("the holder issues as before; a flagged record answers 409 on issue and on registering again, and keeps its history readable", async ({
  upgraded: { ids, edge },
}) => {
  expect(await call(edge, "POST", `/api/v1/btc/xpub/${ids.alice}/address`, accounts.alice)).toEqual({
    status: 201,
    body: { address: ACCOUNT_0!.addresses[0]!.mainnet, index: 0, path: "m/84'/0'/0'/0/0" },
  });
  expect((await call(edge, "POST", "/api/v1/btc/xpub", accounts.alice, { xpub: ACCOUNT_0!.zpub })).status).toBe(200);

  for (const [name, id] of [
    ["bob", ids.bob],
    ["carol", ids.carol],
  ] as const) {
    expect(await call(edge, "POST", `/api/v1/btc/xpub/${id}/address`, accounts[name])).toEqual({
      status: 409,
      body: { message: ISSUES_NOTHING, errors: { id: [ISSUES_NOTHING] } },
    });
    expect(await call(edge, "POST", "/api/v1/btc/xpub", accounts[name], { xpub: ACCOUNT_0!.zpub })).toEqual({
      status: 409,
      body: { message: HELD, errors: { xpub: [HELD] } },
    });
  }
  const bobsHistory = await call(edge, "GET", `/api/v1/btc/xpub/${ids.bob}/addresses`, accounts.bob);
  expect(bobsHistory).toMatchObject({
    status: 200,
    body: { data: [{ address: ACCOUNT_0!.addresses[0]!.mainnet, index: 0 }], meta: { total: 1 } },
  });
});

it("keys move refuses a flagged record (its holder is what moves) and a target account holding a flagged record of the key", async ({
  upgraded: { ids, edge },
  xpubDb: connection,
}) => {
  const db = connection.db;
  expect(await moveKeyRecord(db, { id: ids.bob, toAccountId: accounts.dave.accountId })).toEqual({
    outcome: "flagged_duplicate",
    holderId: ids.alice,
  });
  expect(await moveKeyRecord(db, { id: ids.alice, toAccountId: accounts.carol.accountId })).toEqual({
    outcome: "target_holds_duplicate",
    duplicateId: ids.carol,
  });
  // Nothing changed: the holder still issues for its account.
  expect((await call(edge, "POST", `/api/v1/btc/xpub/${ids.alice}/address`, accounts.alice)).status).toBe(201);
});
