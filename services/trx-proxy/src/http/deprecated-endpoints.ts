/**
 * The four deprecated Tron endpoints that take or return a private key (spec, Versioning 3):
 *   POST /api/v1/trx/account/create         a fresh key and its address
 *   POST /api/v1/trx/account/private-key    BIP-39 mnemonic → key at m/44'/195'/0'/0/{index}
 *   POST /api/v1/trx/account/send           TRX: node builds, proxy signs locally, broadcasts
 *   POST /api/v1/trx/account/send/usdt      USDT the same way, fee_limit in TRX (default 15)
 * Every answer carries `Deprecation`, `Sunset` and a `Link` to the replacement flow; from the sunset
 * instant on they answer 410 naming it.
 *
 * Keys and mnemonics live only in this request's memory: never stored, never logged, never echoed
 * in an error (the handlers log nothing; node errors carry addresses and txIDs only).
 */
import { abortOnClose } from "@chaingate/http";
import { hasErrorCode } from "@chaingate/errors";
import type { NodeClient, NodeRpcError } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { toPositiveBaseUnits } from "@chaingate/decimal-amount";
import { ERC20_TRANSFER_SELECTOR } from "@chaingate/ethereum";
import { generateKey, keyFromMnemonic, MAX_CHILD_INDEX } from "../domain/derive-key.ts";
import { parsePrivateKey, signTransactionId, transactionId } from "../domain/sign-transaction.ts";
import { TRX_DECIMALS, addressFromPrivateKey, parseTronAddress, type TronAddress } from "@chaingate/tron";
import { buildTransfer, trc20TransferParameter, type Transfer } from "../infra/build-transfer.ts";
import { utf8FromHex, type LosslessRecord } from "../infra/tron-wallet.ts";
import { numbersAsText, toPlainJson } from "./lossless-body.ts";
import { TRX_CODES } from "./trx-errors.ts";
import type { TrxRoute } from "./trx-route.ts";

/** The spec's default fee_limit of send/usdt, in TRX. */
export const DEFAULT_USDT_FEE_LIMIT_TRX = "15";
const MAX_FEE_LIMIT_SUN = 15_000_000_000n;

export const SEND_REPLACEMENT = "POST /api/v1/trx/transactions/create, sign locally, then POST /api/v1/trx/transactions/broadcast";
export const KEY_REPLACEMENT =
  "generate or derive keys locally (for example TronWeb's utils.accounts.generateAccount or fromMnemonic); no chaingate endpoint takes or returns private keys";

const MESSAGES = {
  required: "The private_key, to_address and amount fields are required.",
  privateKey: "Invalid private key format.",
  toAddress: "Invalid to_address.",
  amount: "Invalid amount.",
  feeLimit: "Invalid fee_limit.",
  mnemonicRequired: "The mnemonic field is required.",
  mnemonic: "Invalid mnemonic.",
  index: "Invalid index.",
} as const;

export interface SunsetPolicy {
  sunset: Date;
  now: () => Date;
}

export function deprecatedEndpoints(route: TrxRoute, policy: SunsetPolicy) {
  /** Deprecation headers on every answer; 410 from the sunset on. Runs before the body is read. */
  const gate =
    (replacement: string): RequestHandler =>
    (_req, res, next) => {
      res.setHeader("Deprecation", `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`);
      res.setHeader("Sunset", policy.sunset.toUTCString());
      res.setHeader(
        "Link",
        '</api/v1/trx/transactions/create>; rel="successor-version", </api/v1/trx/transactions/broadcast>; rel="successor-version"',
      );
      if (policy.now().getTime() >= policy.sunset.getTime()) {
        res.status(410).json({ error: `This endpoint was shut down on ${policy.sunset.toUTCString()}. Instead, ${replacement}.` });
        return;
      }
      next();
    };

  const createAddress: RequestHandler = (_req, res) => {
    const key = generateKey();
    res.json({ address: key.base58, hex_address: key.hex, private_key: key.privateKey });
  };

  const privateKeyFromMnemonic: RequestHandler = (req, res) => {
    const body = numbersAsText(req.body);
    if (typeof body.mnemonic !== "string" || body.mnemonic.trim() === "") {
      res.status(400).json({ error: MESSAGES.mnemonicRequired });
      return;
    }
    const index =
      body.index === undefined ? 0 : typeof body.index === "string" && /^\d{1,10}$/.test(body.index) ? Number(body.index) : Number.NaN;
    if (!(index >= 0 && index <= MAX_CHILD_INDEX) || (body.passphrase !== undefined && typeof body.passphrase !== "string")) {
      res.status(400).json({ error: MESSAGES.index });
      return;
    }
    const key = keyFromMnemonic(body.mnemonic, index, (body.passphrase as string | undefined) ?? "");
    if (!key) {
      res.status(400).json({ error: MESSAGES.mnemonic });
      return;
    }
    res.json({ address: key.base58, hex_address: key.hex, private_key: key.privateKey, path: key.path });
  };

  const sendTrx: RequestHandler = async (req, res) => {
    const body = numbersAsText(req.body);
    const parties = readParties(body);
    if (!parties.ok) return refuse(res, parties.error);
    const { privateKey, to } = parties;
    const amount = typeof body.amount === "string" ? toPositiveBaseUnits(body.amount, TRX_DECIMALS) : undefined;
    if (!amount?.ok || amount.value > BigInt(Number.MAX_SAFE_INTEGER)) return refuse(res, MESSAGES.amount);
    const from = addressFromPrivateKey(privateKey);
    const sent = await signAndSend(route.node, { kind: "trx", from, to, amount: amount.value }, privateKey, abortOnClose(res));
    if (!sent.ok) return refuse(res, `Broadcast failed: ${sent.message}`, sent.code ? { code: sent.code } : undefined);
    res.json({
      success: true,
      tx_id: sent.txId,
      from_address: from.base58,
      to_address: to.base58,
      amount: Number(amount.value),
      amount_trx: Number(body.amount),
    });
  };

  const sendUsdt: RequestHandler = async (req, res) => {
    const body = numbersAsText(req.body);
    const parties = readParties(body);
    if (!parties.ok) return refuse(res, parties.error);
    const { privateKey, to } = parties;
    const token = route.whitelist.find((entry) => entry.symbol === "USDT");
    if (!token) {
      res.status(500).json({ error: "USDT is not in this service's TRC-20 whitelist." });
      return;
    }
    const amount = typeof body.amount === "string" ? toPositiveBaseUnits(body.amount, token.decimals) : undefined;
    if (!amount?.ok) return refuse(res, MESSAGES.amount);
    const feeLimit =
      body.fee_limit === undefined
        ? toPositiveBaseUnits(DEFAULT_USDT_FEE_LIMIT_TRX, TRX_DECIMALS)
        : typeof body.fee_limit === "string"
          ? toPositiveBaseUnits(body.fee_limit, TRX_DECIMALS)
          : undefined;
    if (!feeLimit?.ok || feeLimit.value > MAX_FEE_LIMIT_SUN) return refuse(res, MESSAGES.feeLimit);
    const from = addressFromPrivateKey(privateKey);
    const sent = await signAndSend(
      route.node,
      { kind: "trc20", from, to, amount: amount.value, token, feeLimit: feeLimit.value },
      privateKey,
      abortOnClose(res),
    );
    if (!sent.ok) return refuse(res, `Broadcast failed: ${sent.message}`, sent.code ? { code: sent.code } : undefined);
    res.json({
      success: true,
      tx_id: sent.txId,
      from_address: from.base58,
      to_address: to.base58,
      amount: Number(body.amount),
      amount_trx: Number(body.amount),
    });
  };

  return { gate, createAddress, privateKeyFromMnemonic, sendTrx, sendUsdt };
}

/** RFC 9745's deprecation date: the v1 documentation marks these endpoints deprecated one year before the sunset. */
const DEPRECATED_SINCE = new Date("2025-12-01T00:00:00Z");

/** The fields both send endpoints share, checked in the spec's order: presence, key, recipient. */
function readParties(body: Record<string, unknown>): { ok: true; privateKey: Uint8Array; to: TronAddress } | { ok: false; error: string } {
  if (!present(body.private_key) || !present(body.to_address) || !present(body.amount)) return { ok: false, error: MESSAGES.required };
  const privateKey = typeof body.private_key === "string" ? parsePrivateKey(body.private_key) : undefined;
  if (!privateKey) return { ok: false, error: MESSAGES.privateKey };
  const to = typeof body.to_address === "string" ? parseTronAddress(body.to_address) : undefined;
  if (!to) return { ok: false, error: MESSAGES.toAddress };
  return { ok: true, privateKey, to };
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

function refuse(res: Parameters<RequestHandler>[1], error: string, details?: Record<string, unknown>): void {
  res.status(400).json(details ? { error, details } : { error });
}

type Sent = { ok: true; txId: string } | { ok: false; code?: string; message: string };

/**
 * Builds by the node, checks the node built what was asked (it is about to be signed), signs the
 * recomputed txID locally and broadcasts. A node failure (not a refusal) throws: the spec's 500.
 */
async function signAndSend(node: NodeClient, transfer: Transfer, privateKey: Uint8Array, signal: AbortSignal): Promise<Sent> {
  const built = await buildTransfer(node, transfer, signal);
  if (!built.ok) return { ok: false, code: built.code, message: built.message };
  const transaction = built.transaction;
  const rawDataHex = String(transaction.raw_data_hex);
  const txId = transactionId(rawDataHex);
  if (txId !== transaction.txID || !builtAsAsked(transaction, transfer)) {
    throw new Error("the node built a transaction other than the one asked for; not signed");
  }
  const signed = { ...transaction, signature: [signTransactionId(txId, privateKey)] };
  const plain = toPlainJson(signed);
  if (!plain.ok) throw new Error(`the node's transaction holds ${plain.number}, beyond exact forwarding`);
  let answer: { result?: boolean; code?: string; message?: string };
  try {
    answer = await node.request("/wallet/broadcasttransaction", { body: plain.value, signal });
  } catch (error) {
    if (hasErrorCode(error, TRX_CODES.rpcError)) return { ok: false, message: (error as NodeRpcError).rpcMessage };
    throw error;
  }
  if (answer.result !== true) return { ok: false, code: answer.code, message: utf8FromHex(answer.message ?? answer.code ?? "rejected") };
  return { ok: true, txId };
}

function builtAsAsked(transaction: LosslessRecord, transfer: Transfer): boolean {
  const contract = (transaction.raw_data as { contract?: Array<{ parameter?: { value?: Record<string, unknown> } }> } | undefined)
    ?.contract;
  const value = contract?.length === 1 ? contract[0]?.parameter?.value : undefined;
  if (!value || value.owner_address !== transfer.from.hex) return false;
  if (transfer.kind === "trc20") {
    return (
      value.contract_address === transfer.token.contractHex &&
      value.data === `${ERC20_TRANSFER_SELECTOR}${trc20TransferParameter(transfer.to, transfer.amount)}`
    );
  }
  return value.to_address === transfer.to.hex && String(value.amount) === transfer.amount.toString();
}
