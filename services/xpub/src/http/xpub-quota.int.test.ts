/**
 * QUOTA_XPUB_RECORDS_PER_ACCOUNT at the service's internal edge over a real Postgres: the records of
 * both chains count together, parallel registrations never pass the last free record, the
 * refusal is the spec's 422 `{message, errors.xpub}` naming the quota, and a key the account
 * already holds still answers 200 at the quota.
 */
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDKey } from "@scure/bip32";
import type { InternalEdge } from "@chaingate/testing";
import { expect } from "vitest";
import { xpubTest } from "../testing/xpub-fixtures.ts";
import vectors from "../domain/fixtures/bip84-vectors.json" with { type: "json" };

const QUOTA = 3;
const seed = mnemonicToSeedSync("test test test test test test test test test test test junk");
/** Distinct Ethereum account xpubs: account indexes of one wallet. */
const ethAccountXpub = (account: number) => HDKey.fromMasterSeed(seed).derive(`m/44'/60'/${account}'`).publicExtendedKey;

const it = xpubTest;
xpubTest.scoped({ xpubSettings: { QUOTA_XPUB_RECORDS_PER_ACCOUNT: String(QUOTA) } });

async function register(
  edge: InternalEdge,
  as: { accountId: number },
  path: string,
  key: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await edge.request(as.accountId, path, {
    method: "POST",
    headers: { accept: "application/json" },
    body: JSON.stringify({ xpub: key }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

it("lets exactly the quota of parallel registrations through, over both chains; the rest get 422 naming the quota", async ({ edge }) => {
  // Accounts the gateway would have authenticated.
  const alice = { accountId: 1 };
  expect((await register(edge, alice, "/api/v1/btc/xpub", vectors.accounts[0]!.zpub)).status).toBe(201);
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => register(edge, alice, "/api/v1/eth/xpub", ethAccountXpub(i))));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
  const message = `This account already holds ${QUOTA} extended-key records, its quota (QUOTA_XPUB_RECORDS_PER_ACCOUNT = ${QUOTA}); ask the operator to raise the quota.`;
  for (const refused of answers.filter((answer) => answer.status === 422))
    expect(refused.body).toEqual({ message, errors: { xpub: [message] } });

  // At the quota, a key the account holds still answers its record; another account is unaffected.
  const held = answers.find((answer) => answer.status === 201)!;
  const again = answers.indexOf(held);
  expect(await register(edge, alice, "/api/v1/eth/xpub", ethAccountXpub(again))).toMatchObject({ status: 200, body: { id: held.body.id } });
  const bob = { accountId: 2 };
  expect((await register(edge, bob, "/api/v1/eth/xpub", ethAccountXpub(10))).status).toBe(201);
}, 60_000);
