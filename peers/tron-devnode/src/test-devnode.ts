/**
 * Test helpers: one devnode per test file (blocks only on demand), with TronWeb signing as account 0.
 *
 * The fixtures (vitest `test.extend`) start the devnode when a test of the file first names it and
 * close it after the file's last test:
 *
 *   const it = devnodeTest;
 *   devnodeTest.scoped({ devnodeOptions: { solidLag: 3 } }); // options of the file's own, at the top of the file
 *   it("reads the block", async ({ devnode, tronWeb, bob }) => { … });
 *
 * The devnode is file-scoped: every describe of a file shares it, so a file needing a devnode with
 * other options, or a fresh one, is a file of its own. The test kit cannot be imported here (this
 * package is a dev peer below it), so these extend vitest's `test` directly.
 */
import { TronWeb } from "tronweb";
import { expect, test } from "vitest";
import { transactionId } from "./encode-transaction.ts";
import { toHex } from "./hex.ts";
import { startTronDevnode } from "./index.ts";
import type { DevAccount, TronDevnode, TronDevnodeOptions } from "./index.ts";
import { signTransactionId } from "./sign-transaction.ts";
import { parseTransactionJson } from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";

/** What a test file gets once its devnode runs. */
export interface DevnodeContext {
  devnode: TronDevnode;
  /** TronWeb on the devnode, signing as `alice`. */
  tronWeb: TronWeb;
  /** Genesis account 0. */
  alice: DevAccount;
  /** Genesis account 1. */
  bob: DevAccount;
}

export interface DevnodeFixtures extends DevnodeContext {
  /** Options over the test defaults (any free port, blocks only on demand), for the whole file (set with `devnodeTest.scoped`). */
  devnodeOptions: TronDevnodeOptions;
}

export const devnodeTest = test.extend<DevnodeFixtures>({
  devnodeOptions: [{}, { scope: "file" }],
  devnode: [
    async ({ devnodeOptions }, use) => {
      const devnode = await startTronDevnode({ port: 0, blockIntervalMs: 0, ...devnodeOptions });
      try {
        await use(devnode);
      } finally {
        await devnode.close();
      }
    },
    { scope: "file" },
  ],
  alice: [async ({ devnode }, use) => use(devnode.genesis.accounts[0] as DevAccount), { scope: "file" }],
  bob: [async ({ devnode }, use) => use(devnode.genesis.accounts[1] as DevAccount), { scope: "file" }],
  tronWeb: [
    async ({ devnode, alice }, use) => use(new TronWeb({ fullHost: devnode.url, privateKey: alice.privateKey })),
    { scope: "file" },
  ],
});

/** Signs a transaction JSON (as a builder endpoint returned it) with a private key. */
export function signJson(transaction: JsonObject, privateKey: string): JsonObject {
  const parsed = parseTransactionJson(transaction, transaction.visible === true);
  return { ...transaction, signature: [toHex(signTransactionId(transactionId(parsed.raw), privateKey))] };
}

/** POSTs a body (JSON, or a string as it is) to a devnode path, expects HTTP 200 and answers the parsed JSON. */
export async function postJson<T = JsonObject>(devnode: TronDevnode, path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(devnode.url + path, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/**
 * Calls a devnode path as an HTTP client would: GET without a body (unless `init` names a method), else a
 * POST of the body (JSON, or a string as it is). Answers the status, the text and its JSON (undefined when
 * the text is not JSON); it expects nothing.
 */
export async function callDevnode(
  devnode: TronDevnode,
  path: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(devnode.url + path, {
    method: body === undefined && !init.method ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
    ...init,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** Broadcasts from alice to bob a TRX, a TRC-10, a USDT and a too-low-fee_limit USDT transfer; answers their txIDs. */
export async function sendEveryTransferKind({
  tronWeb,
  bob,
}: Pick<DevnodeContext, "tronWeb" | "bob">): Promise<{ trx: string; trc10: string; usdt: string; outOfEnergy: string }> {
  const trx = await tronWeb.trx.sendTransaction(bob.base58, 1_000_000);
  const trc10 = await tronWeb.trx.sendToken(bob.base58, 500, "1000001");
  const usdt = await tronWeb.contract().at("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  const usdtTx: string = await usdt.transfer(bob.base58, 2_000_000).send({ feeLimit: 150_000_000 });
  const outOfEnergy: string = await usdt.transfer(bob.base58, 3_000_000).send({ feeLimit: 1_000_000 });
  return { trx: trx.transaction.txID, trc10: trc10.transaction.txID, usdt: usdtTx, outOfEnergy };
}
