/**
 * A move while the old account is issuing from the record, over a real Postgres: the move waits
 * for the batch holding the row lock, later calls of the old account get 404, and the new account
 * continues the counter, so every index is issued once and every address belongs to one account.
 */
import { accountSequence, type InternalEdge } from "@chaingate/testing";
import { expect } from "vitest";
import { auditIssuedAddresses } from "../testing/index.ts";
import { xpubTest } from "../testing/xpub-fixtures.ts";
import { freshAccountKey } from "../testing/same-node-other-text.ts";
import { moveKeyRecord } from "./move-key-record.ts";

const CALLS_BEFORE_AND_DURING = 60;
const CALLS_AFTER = 10;

const newAccount = accountSequence();
const alice = newAccount();
const bob = newAccount();

const it = xpubTest;

const issue = async (edge: InternalEdge, as: { accountId: number }, id: number) => {
  const response = await edge.request(as.accountId, `/api/v1/btc/xpub/${id}/address`, { method: "POST" });
  return { status: response.status, body: (await response.json()) as { index?: number } };
};

it("issues every index once across the move: the old account's calls before it get 201, after it 404; the new account continues", async ({
  edge,
  database,
  xpubDb: connection,
}) => {
  const registered = await edge.request(alice.accountId, "/api/v1/btc/xpub", {
    method: "POST",
    body: JSON.stringify({ xpub: freshAccountKey() }),
  });
  const { id } = (await registered.json()) as { id: number };

  const calls = Array.from({ length: CALLS_BEFORE_AND_DURING }, () => issue(edge, alice, id));
  const moved = await moveKeyRecord(connection.db, { id, toAccountId: bob.accountId });
  const alicesAnswers = await Promise.all(calls);
  const bobsAnswers = await Promise.all(Array.from({ length: CALLS_AFTER }, () => issue(edge, bob, id)));

  expect(moved.outcome).toBe("moved");
  const statuses = new Set(alicesAnswers.map((answer) => answer.status));
  expect([...statuses].every((status) => status === 201 || status === 404)).toBe(true);
  const alicesIndexes = alicesAnswers.filter((answer) => answer.status === 201).map((answer) => answer.body.index!);
  const bobsIndexes = bobsAnswers.map((answer) => answer.body.index!);
  expect(bobsAnswers.every((answer) => answer.status === 201)).toBe(true);
  // Whatever alice got before the move, bob goes on from there, without a gap or a repeat.
  expect([...alicesIndexes, ...bobsIndexes].sort((a, b) => a - b)).toEqual(
    Array.from({ length: alicesIndexes.length + CALLS_AFTER }, (_, i) => i),
  );
  expect(Math.min(...bobsIndexes)).toBe(alicesIndexes.length);
  if (moved.outcome === "moved") expect(moved.record).toMatchObject({ nextIndex: alicesIndexes.length, addresses: alicesIndexes.length });

  const audit = await auditIssuedAddresses(database.connectionString, id);
  expect(audit).toEqual({
    rows: audit.nextIndex,
    distinctIndexes: audit.nextIndex,
    distinctAddresses: audit.nextIndex,
    minIndex: 0,
    maxIndex: audit.nextIndex - 1,
    nextIndex: alicesIndexes.length + CALLS_AFTER,
  });
  const owners = await connection.db.selectFrom("issued_addresses").select("account_id").distinct().where("key_id", "=", id).execute();
  expect(owners).toEqual([{ account_id: bob.accountId }]);
});
