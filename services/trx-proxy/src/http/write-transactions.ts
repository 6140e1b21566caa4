/**
 * The replacement flow for the deprecated key-taking endpoints: the node builds, the client signs,
 * the proxy broadcasts.
 *   POST /api/v1/trx/transactions/create     createtransaction (TRX), transferasset (TRC-10),
 *                                            triggersmartcontract transfer(address,uint256) (TRC-20)
 *   POST /api/v1/trx/transactions/broadcast  broadcasttransaction; 200 whatever the node decides
 */
import { trxCreateTransactionRequestSchema } from "@chaingate/contracts";
import { hasErrorCode, ValidationError } from "@chaingate/errors";
import { abortOnClose, parseRequest } from "@chaingate/http";
import { stringifyLosslessJson, type NodeRpcError } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { toPositiveBaseUnits, type AmountProblem } from "@chaingate/decimal-amount";
import { TRX_DECIMALS, parseTronAddress, type TronAddress } from "@chaingate/tron";
import { utf8FromHex, type LosslessRecord } from "../infra/tron-wallet.ts";
import { buildTransfer, type Transfer } from "../infra/build-transfer.ts";
import { numbersAsText, toPlainJson } from "./lossless-body.ts";
import { TRX_CODES } from "./trx-errors.ts";
import { sendJsonText, type TrxRoute } from "./trx-route.ts";

export { losslessJsonBody } from "./lossless-body.ts";

/** Whole TRX a TRC-20 transfer may burn unless the body says otherwise: a transfer to a new holder costs about 13 TRX on mainnet. */
export const DEFAULT_FEE_LIMIT_TRX = "30";
/** java-tron's getMaxFeeLimit: 15 000 TRX. */
export const MAX_FEE_LIMIT_SUN = 15_000_000_000n;
/** Amounts go to the node as JSON numbers: exact only up to 2^53 - 1 base units. */
const MAX_NODE_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

const AMOUNT_MESSAGES: Record<AmountProblem, (field: string, decimals: number) => string> = {
  not_a_decimal: (field) => `The ${field} field must be a positive decimal number in whole units, such as "1.5".`,
  too_many_decimals: (field, decimals) => `The ${field} field has more than ${decimals} decimal places.`,
  not_positive: (field) => `The ${field} field must be greater than 0.`,
};

export function createTransaction(route: TrxRoute): RequestHandler {
  return async (req, res) => {
    const body = parseRequest(trxCreateTransactionRequestSchema, numbersAsText(req.body));
    const errors: Record<string, string[]> = {};
    const from = parseTronAddress(body.from);
    const to = parseTronAddress(body.to);
    if (!from) errors.from = ["The from field must be a Tron address (Base58 T… or hex 41…)."];
    if (!to) errors.to = ["The to field must be a Tron address (Base58 T… or hex 41…)."];
    const signal = abortOnClose(res);
    const currency = await resolveCurrency(route, body.currency, signal);
    if (!currency)
      errors.currency = ["The currency field must be TRX, a TRC-10 token id the node knows, or a whitelisted TRC-20 symbol or contract."];
    const amount = currency ? units(body.amount, currency.decimals, "amount", errors) : undefined;
    let feeLimit: bigint | undefined;
    if (currency?.kind === "trc20") {
      feeLimit = units(body.fee_limit ?? DEFAULT_FEE_LIMIT_TRX, TRX_DECIMALS, "fee_limit", errors);
      if (feeLimit !== undefined && feeLimit > MAX_FEE_LIMIT_SUN)
        (errors.fee_limit ??= []).push("The fee limit field must be at most 15000 TRX.");
    } else if (body.fee_limit !== undefined) {
      errors.fee_limit = ["The fee limit field applies to TRC-20 transfers only."];
    }
    if (amount !== undefined && currency?.kind !== "trc20" && amount > MAX_NODE_AMOUNT)
      (errors.amount ??= []).push(`The amount field is too large (at most ${MAX_NODE_AMOUNT} base units).`);
    if (Object.keys(errors).length > 0 || !from || !to || !currency || amount === undefined) throw new ValidationError(errors);

    const transfer: Transfer =
      currency.kind === "trc20"
        ? { kind: "trc20", from, to, amount, token: currency.token, feeLimit: feeLimit! }
        : currency.kind === "trc10"
          ? { kind: "trc10", from, to, amount, tokenId: currency.tokenId }
          : { kind: "trx", from, to, amount };
    const built = await buildTransfer(route.node, transfer, signal);
    if (!built.ok) {
      res.status(400).json({
        error: built.message,
        details: { reason: "node_error", ...(built.code ? { node_code: built.code } : {}), node_message: built.message },
      });
      return;
    }
    sendJsonText(res, 200, stringifyLosslessJson(built.transaction));
  };
}

export function broadcastTransaction({ node }: TrxRoute): RequestHandler {
  return async (req, res) => {
    const body = req.body as unknown;
    const record = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as LosslessRecord) : undefined;
    const errors: Record<string, string[]> = {};
    if (!record || typeof record.raw_data !== "object" || record.raw_data === null || Array.isArray(record.raw_data))
      errors.raw_data = [
        "The raw data field is required: send the signed transaction as transactions/create returned it, with its signature.",
      ];
    if (
      !record ||
      !Array.isArray(record.signature) ||
      record.signature.length === 0 ||
      !record.signature.every((s) => typeof s === "string")
    )
      errors.signature = ["The signature field must be a non-empty array of hex signatures."];
    const plain = toPlainJson(record ?? {});
    if (!plain.ok) errors.body = [`The number ${plain.number} is beyond what the proxy can forward exactly (2^53).`];
    if (Object.keys(errors).length > 0 || !plain.ok) throw new ValidationError(errors);

    let answer: { result?: boolean; txid?: string; code?: string; message?: string };
    try {
      answer = await node.request("/wallet/broadcasttransaction", { body: plain.value, signal: abortOnClose(res) });
    } catch (error) {
      // java-tron answers a transaction it cannot even parse with an exception body: a rejection too.
      if (!hasErrorCode(error, TRX_CODES.rpcError)) throw error;
      res.json({ result: false, code: "OTHER_ERROR", message: (error as NodeRpcError).rpcMessage });
      return;
    }
    const result: Record<string, unknown> = { result: answer.result === true };
    if (answer.txid !== undefined) result.txid = answer.txid;
    if (answer.code !== undefined) result.code = answer.code;
    if (answer.message !== undefined) result.message = utf8FromHex(answer.message);
    res.json(result);
  };
}

type Currency =
  | { kind: "trx"; decimals: number; tokenId?: undefined }
  | { kind: "trc10"; decimals: number; tokenId: string }
  | { kind: "trc20"; decimals: number; token: TrxRoute["whitelist"][number] };

async function resolveCurrency({ whitelist, trc10 }: TrxRoute, currency: string, signal: AbortSignal): Promise<Currency | undefined> {
  if (currency.toUpperCase() === "TRX") return { kind: "trx", decimals: TRX_DECIMALS };
  if (/^\d{1,19}$/.test(currency)) {
    const metadata = await trc10.get(currency, signal);
    return metadata ? { kind: "trc10", decimals: metadata.precision, tokenId: currency } : undefined;
  }
  const address: TronAddress | undefined = parseTronAddress(currency);
  const token = whitelist.find((entry) => entry.symbol.toUpperCase() === currency.toUpperCase() || entry.contractHex === address?.hex);
  return token ? { kind: "trc20", decimals: token.decimals, token } : undefined;
}

function units(text: string, decimals: number, field: string, errors: Record<string, string[]>): bigint | undefined {
  const converted = toPositiveBaseUnits(text, decimals);
  if (converted.ok) return converted.value;
  (errors[field] ??= []).push(AMOUNT_MESSAGES[converted.problem](field.replace("_", " "), decimals));
  return undefined;
}
