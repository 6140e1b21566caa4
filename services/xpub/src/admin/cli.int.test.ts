/**
 * The xpub operator CLI (`xpub-admin`) as the operator runs it, next to a running xpub service over
 * the same real Postgres: `keys find` names the account holding a key, `keys move` hands the record
 * to another account with its counter and history, so the new account issues on from the next index
 * (no address is ever issued twice) and the old one gets 404 for the record.
 */
import { accountSequence, type InternalEdge } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { bitcoinScheme } from "../domain/key-scheme.ts";
import { XPUB_SCHEMA } from "../infra/database-schema.ts";
import { runXpubAdmin } from "../testing/index.ts";
import { xpubTest } from "../testing/xpub-fixtures.ts";
import { freshAccountKey, sameNodeOtherText } from "../testing/same-node-other-text.ts";

const HELD =
  "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";
const bitcoin = bitcoinScheme("mainnet");
const newAccount = accountSequence();
const alice = newAccount();
const bob = newAccount();
const key = freshAccountKey();

async function call(edge: InternalEdge, method: "GET" | "POST", path: string, as: { accountId: number }, body?: unknown) {
  const response = await edge.request(as.accountId, path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Alice's record of `key`, with two addresses issued: what the operator finds and moves. */
const it = xpubTest.extend<{ squatted: { id: number; operator: (...args: string[]) => ReturnType<typeof runXpubAdmin> } }>({
  squatted: [
    async ({ edge, database }, use) => {
      const registered = await call(edge, "POST", "/api/v1/btc/xpub", alice, { xpub: key, label: "squatted" });
      expect(registered.status).toBe(201);
      const id = registered.body.id as number;
      for (let i = 0; i < 2; i++) expect((await call(edge, "POST", `/api/v1/btc/xpub/${id}/address`, alice)).status).toBe(201);
      await use({ id, operator: (...args) => runXpubAdmin(database.connectionString, ...args) });
    },
    { scope: "file" },
  ],
});

/** The tab-separated rows under the header line, comment lines left out. */
const rows = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter((line) => !line.startsWith("#"))
    .slice(1)
    .map((line) => line.split("\t"));

describe("xpub-admin keys find / keys move", () => {
  it("keys find names the record holding the key, its account and issued count, for any text of the node", async ({
    squatted: { id, operator },
  }) => {
    for (const text of [key, sameNodeOtherText(key)]) {
      const found = await operator("keys", "find", "--xpub", text);
      expect(found.code).toBe(0);
      expect(found.stdout.split("\n")[0]).toBe(
        ["id", "account", "chain", "issued_count", "duplicate_of", "label", "created_at"].join("\t"),
      );
      expect(rows(found.stdout)).toEqual([[String(id), String(alice.accountId), "BTC", "2", "", "squatted", expect.any(String)]]);
    }
    const unknown = await operator("keys", "find", "--xpub", freshAccountKey());
    expect(unknown.code).toBe(0);
    expect(rows(unknown.stdout)).toEqual([]);
    expect(unknown.stdout).toContain("# no record holds this key");
  });

  it("keys find refuses what is no account key, with the parsers' reasons", async ({ squatted: { operator } }) => {
    const refused = await operator("keys", "find", "--xpub", "zpub-not-a-key");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/neither a Bitcoin BIP84 zpub \(.+\) nor an Ethereum BIP44 xpub \(.+\)/);
  });

  it("keys move hands the record to the other account: it issues the next index, reads the whole history; the old account gets 404", async ({
    squatted: { id, operator },
    edge,
    database,
  }) => {
    const moved = await operator("keys", "move", "--id", String(id), "--to-account", String(bob.accountId));
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(
      `moved record ${id} (BTC, 2 addresses issued, next index 2) from account ${alice.accountId} to account ${bob.accountId}`,
    );

    // The old account: the record is gone for it, and the key is not registrable again.
    const notFound = { status: 404, body: { message: `No xpub record with id ${id} was found.` } };
    expect(await call(edge, "POST", `/api/v1/btc/xpub/${id}/address`, alice)).toEqual(notFound);
    expect(await call(edge, "GET", `/api/v1/btc/xpub/${id}/addresses`, alice)).toEqual(notFound);
    expect((await call(edge, "GET", "/api/v1/btc/xpub", alice)).body.data).toEqual([]);
    expect(await call(edge, "POST", "/api/v1/btc/xpub", alice, { xpub: key })).toEqual({
      status: 409,
      body: { message: HELD, errors: { xpub: [HELD] } },
    });

    // The new account: the same record, counter continued, history complete.
    const expected = bitcoin.derive(bitcoin.parse(key), 2);
    expect(await call(edge, "POST", `/api/v1/btc/xpub/${id}/address`, bob)).toEqual({
      status: 201,
      body: { address: expected.address, index: 2, path: expected.path },
    });
    const history = await call(edge, "GET", `/api/v1/btc/xpub/${id}/addresses`, bob);
    expect((history.body.data as Array<{ index: number }>).map((entry) => entry.index)).toEqual([0, 1, 2]);
    expect(await call(edge, "POST", "/api/v1/btc/xpub", bob, { xpub: key })).toMatchObject({
      status: 200,
      body: { id, label: "squatted", next_index: 3, issued_count: 3 },
    });

    // Every issued address went along (the outbox relays them as the new account's), and the move is on record.
    expect(
      await database.query<{ account_id: string }>(`select distinct account_id from ${XPUB_SCHEMA}.issued_addresses where key_id = $1`, [
        id,
      ]),
    ).toEqual([{ account_id: String(bob.accountId) }]);
    const found = await operator("keys", "find", "--xpub", key);
    expect(rows(found.stdout)).toEqual([[String(id), String(bob.accountId), "BTC", "3", "", "squatted", expect.any(String)]]);
    expect(found.stdout).toMatch(
      new RegExp(`# record ${id} moved from account ${alice.accountId} to account ${bob.accountId} at \\S+ \\(next index 2\\)`),
    );
  });

  it("moving to the account that holds the record changes nothing; an unknown record or a bad flag is refused", async ({
    squatted: { id, operator },
  }) => {
    const again = await operator("keys", "move", "--id", String(id), "--to-account", String(bob.accountId));
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining(`record ${id} already belongs to account ${bob.accountId}`) });
    expect(await operator("keys", "move", "--id", "999999", "--to-account", "1")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No xpub record with id 999999."),
    });
    expect(await operator("keys", "move", "--id", String(id))).toMatchObject({ code: 64, stderr: expect.stringContaining("--to-account") });
    expect(await operator("keys", "move", "--id", String(id), "--to-account", "0")).toMatchObject({ code: 64 });
  });
});
