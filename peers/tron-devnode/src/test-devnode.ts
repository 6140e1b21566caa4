/** Test helper: one devnode per test file (blocks only on demand), with TronWeb signing as account 0. */
import { TronWeb } from "tronweb";
import { afterAll, beforeAll } from "vitest";
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
  tronWeb: TronWeb;
  alice: DevAccount;
  bob: DevAccount;
}

/** Starts a devnode before the file's tests and closes it after; read the context inside tests only. */
export function useDevnode(options: TronDevnodeOptions = {}): DevnodeContext {
  const context = {} as DevnodeContext;
  beforeAll(async () => {
    context.devnode = await startTronDevnode({ port: 0, blockIntervalMs: 0, ...options });
    [context.alice, context.bob] = context.devnode.genesis.accounts as [DevAccount, DevAccount];
    context.tronWeb = new TronWeb({ fullHost: context.devnode.url, privateKey: context.alice.privateKey });
  });
  afterAll(async () => {
    await context.devnode?.close();
  });
  return context;
}

/** Signs a transaction JSON (as a builder endpoint returned it) with a private key. */
export function signJson(transaction: JsonObject, privateKey: string): JsonObject {
  const parsed = parseTransactionJson(transaction, transaction.visible === true);
  return { ...transaction, signature: [toHex(signTransactionId(transactionId(parsed.raw), privateKey))] };
}
