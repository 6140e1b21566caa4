/**
 * Tron: TRX (TransferContract), TRC-10 (TransferAssetContract) and TRC-20 (Transfer logs of the
 * operator's whitelist), each with the execution result. A whitelisted `transfer(…)` call that
 * failed (e.g. OUT_OF_ENERGY) leaves no log: it is reported from its call data with the failure
 * as its status, never as money received.
 *
 * TRX and TRC-10 that a contract sends (internal transfers) appear only in the transaction info's
 * `internal_transactions`, never in `raw_data`: each entry that moved value is reported, unless
 * it was rejected or its transaction failed (then nothing moved).
 *
 * TRC-10 currency is the token id (e.g. "1000001"), not its symbol: ids are unique, symbols are
 * not (anyone can issue a TRC-10 named "USDT"). Its decimals are the token's precision.
 */
import { collectMatches } from "./collect-matches.ts";
import { formatUnits, hexToBaseUnits, integerToBaseUnits } from "@chaingate/decimal-amount";
import { TRX_DECIMALS, tronAddressFromEvmHex } from "@chaingate/tron";
import { SUCCESS, type WhitelistedToken } from "./currencies.ts";
import type { BlockHeader, Match, Transfer } from "./transfer.ts";
import type { WatchIndex } from "./watch-index.ts";
import { decodeTransferCall, ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

/** `/wallet/getblockbynum` (visible=false: addresses as 41… hex), amounts as numbers or, when beyond 2^53, their text. */
export interface TronBlock {
  blockID: string;
  block_header: { raw_data: { number?: number; parentHash: string; timestamp?: number } };
  transactions?: TronTransaction[];
}

export interface TronTransaction {
  txID: string;
  ret?: Array<{ contractRet?: string }>;
  raw_data: { contract: Array<{ type: string; parameter: { value: TronContractValue } }> };
}

export interface TronContractValue {
  owner_address?: string;
  to_address?: string;
  amount?: number | string;
  asset_name?: string;
  contract_address?: string;
  data?: string;
}

/** `/wallet/gettransactioninfobyblocknum` entries. */
export interface TronTransactionInfo {
  id: string;
  log?: Array<{ address: string; topics?: string[]; data?: string }>;
  /** Value moved by contracts (java-tron's `InternalTransaction`); absent when none, or on a node without `saveInternalTx`. */
  internal_transactions?: TronInternalTransaction[];
}

/**
 * One `internal_transactions` entry, as the node printed it (visible=false); read field by field,
 * never trusted to have this shape.
 */
export interface TronInternalTransaction {
  hash?: string;
  /** The sending side: the contract that made the call (41… hex). */
  caller_address?: string;
  /** The receiving side (41… hex). */
  transferTo_address?: string;
  /** TRX first (`{}` when none), then one element per TRC-10 token (`tokenId` set); amounts in base units. */
  callValueInfo?: Array<{ callValue?: number | string; tokenId?: string }>;
  /** Hex of "call", "create" or "suicide". */
  note?: string;
  /** Set when the call failed (its value never moved), or when its whole transaction did. */
  rejected?: boolean;
}

/** What the matcher reads for one block. */
export interface TronBlockData {
  block: TronBlock;
  infos: readonly TronTransactionInfo[];
  /** TRC-10 precision by token id, for the tokens moved in this block (0 when unknown). */
  trc10Decimals?: ReadonlyMap<string, number>;
}

/** TRC-20 tokens by the 40 hex digits of the contract body. */
export type TronTokens = ReadonlyMap<string, WhitelistedToken>;

export function tronBlockHeader(data: TronBlockData): BlockHeader {
  const raw = data.block.block_header.raw_data;
  const height = raw.number ?? 0;
  return {
    height,
    hash: data.block.blockID,
    parentHash: height === 0 ? null : raw.parentHash,
    timeMs: raw.timestamp ?? 0,
    txCount: data.block.transactions?.length ?? 0,
  };
}

const body = (hex: string | undefined) => (hex ?? "").slice(-40).toLowerCase();

export function matchTronBlock(data: TronBlockData, index: WatchIndex, tokens: TronTokens): Match[] {
  const matches: Match[] = [];
  if (!index.watchesAny("TRX")) return matches;
  // Two passes: every candidate's two sides first, asked of the address filter at once (its
  // probes then overlap in memory instead of each waiting for its cache miss between parsing
  // steps: what keeps a 1,000,000-address index nearly as cheap as a small one), then the few
  // candidates a webhook may watch, matched exactly.
  const transactions = data.block.transactions ?? [];
  const sides: string[] = [];
  // Parallel lists, not an object per candidate: most candidates are dropped at once.
  const candidateTransactions: TronTransaction[] = [];
  const candidateKinds: Array<"native" | "failed_trc20"> = [];
  for (const tx of transactions) {
    const kind = pushTransactionSides(tx, tokens, sides);
    if (kind === undefined) continue;
    candidateTransactions.push(tx);
    candidateKinds.push(kind);
  }
  const logInfos: TronTransactionInfo[] = [];
  const logPositions: number[] = [];
  const logSidesStart = sides.length;
  for (const info of data.infos) {
    const entries = info.log;
    if (!entries) continue;
    for (let position = 0; position < entries.length; position++) {
      if (!pushLogSides(entries[position]!, tokens, sides)) continue;
      logInfos.push(info);
      logPositions.push(position);
    }
  }
  const mayBeWatched = index.mayBeWatched("TRX", sides);
  for (let c = 0; c < candidateTransactions.length; c++) {
    if (!mayBeWatched[2 * c] && !mayBeWatched[2 * c + 1]) continue;
    const tx = candidateTransactions[c]!;
    const kind = candidateKinds[c]!;
    const [fromKey, toKey] = [sides[2 * c]!, sides[2 * c + 1]!];
    const status = statusOf(tx);
    const value = tx.raw_data.contract[0]!.parameter.value;
    if (kind === "native") {
      const currency = () => (tx.raw_data.contract[0]!.type === "TransferContract" ? "TRX" : decodeAssetName(value.asset_name ?? ""));
      collectMatches(
        index,
        { coin: "TRX", toKey, fromKey },
        () => trxOrTrc10Transfer(data, currency(), integerToBaseUnits(value.amount), fromKey, toKey, tx.txID, null, status),
        matches,
      );
    } else {
      const token = tokens.get(body(value.contract_address))!;
      // pushTransactionSides decoded it already: a transfer(…) call.
      const call = decodeTransferCall(value.data!)!;
      collectMatches(
        index,
        { coin: "TRX", toKey, fromKey },
        () => trc20Transfer(token, fromKey, toKey, hexToBaseUnits(call.amountHex), tx.txID, null, status),
        matches,
      );
    }
  }
  matchInternalTransfers(data, index, matches);
  for (let l = 0; l < logInfos.length; l++) {
    const at = logSidesStart + 2 * l;
    if (!mayBeWatched[at] && !mayBeWatched[at + 1]) continue;
    const info = logInfos[l]!;
    const position = logPositions[l]!;
    const log = info.log![position]!;
    const token = tokens.get(body(log.address))!;
    const [fromKey, toKey] = [sides[at]!, sides[at + 1]!];
    collectMatches(
      index,
      { coin: "TRX", toKey, fromKey },
      () => trc20Transfer(token, fromKey, toKey, hexToBaseUnits(log.data ?? ""), info.id, position, SUCCESS),
      matches,
    );
  }
  return matches;
}

/**
 * Pushes the sending and receiving keys of the transaction's own transfer and says which it is:
 * TRX or TRC-10, or a whitelisted TRC-20 `transfer(…)` call that failed (no log); undefined, and
 * nothing pushed, when it has none.
 */
function pushTransactionSides(tx: TronTransaction, tokens: TronTokens, sides: string[]): "native" | "failed_trc20" | undefined {
  const contract = tx.raw_data.contract[0];
  if (!contract) return undefined;
  const value = contract.parameter.value;
  if (contract.type === "TransferContract" || contract.type === "TransferAssetContract") {
    sides.push(body(value.owner_address), body(value.to_address));
    return "native";
  }
  if (contract.type !== "TriggerSmartContract" || statusOf(tx) === SUCCESS || !tokens.has(body(value.contract_address))) return undefined;
  const call = decodeTransferCall(value.data ?? "");
  if (!call) return undefined;
  sides.push(body(value.owner_address), call.recipient);
  return "failed_trc20";
}

/** Pushes the sending and receiving keys of a whitelisted TRC-20 Transfer log; false for any other log. */
function pushLogSides(log: NonNullable<TronTransactionInfo["log"]>[number], tokens: TronTokens, sides: string[]): boolean {
  const topics = log.topics;
  if (
    !topics ||
    topics.length !== 3 ||
    !tokens.has(body(log.address)) ||
    topics[0]!.toLowerCase().replace(/^0x/, "") !== ERC20_TRANSFER_TOPIC
  )
    return false;
  sides.push(body(topics[1]), body(topics[2]));
  return true;
}

const statusOf = (tx: TronTransaction) => tx.ret?.[0]?.contractRet ?? SUCCESS;

const TRON_HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;

/** The contract types whose execution runs the TVM: the only ones with internal transactions. */
const VM_CONTRACT_TYPES: ReadonlySet<string> = new Set(["TriggerSmartContract", "CreateSmartContract"]);

/**
 * Internal transfers: per entry of `internal_transactions`, each `callValueInfo` element with a
 * positive amount (TRX, or the TRC-10 token its `tokenId` names), at the entry's index. Only
 * contract calls the block records as SUCCESS count: java-tron marks a failed transaction's entries
 * rejected too, but the block's result is the authority (a missing result is DEFAULT, not SUCCESS),
 * and a TransferContract's own amount is never counted a second time.
 */
function matchInternalTransfers(data: TronBlockData, index: WatchIndex, matches: Match[]): void {
  const succeeded = new Map<string, string>();
  for (const tx of data.block.transactions ?? []) {
    const type = tx.raw_data.contract[0]?.type;
    if (type !== undefined && VM_CONTRACT_TYPES.has(type) && tx.ret?.[0]?.contractRet === SUCCESS)
      succeeded.set(tx.txID.toLowerCase(), tx.txID);
  }
  for (const info of data.infos) {
    const entries = info.internal_transactions;
    if (!Array.isArray(entries) || entries.length === 0) continue;
    const txid = succeeded.get(String(info.id).toLowerCase());
    if (txid === undefined) continue;
    for (let position = 0; position < entries.length; position++) {
      const entry: unknown = entries[position];
      if (typeof entry !== "object" || entry === null) continue;
      const { caller_address: caller, transferTo_address: to, callValueInfo, rejected } = entry as TronInternalTransaction;
      // Anything but an absent or false flag is read as rejected: a deposit is reported only when certain.
      if ((rejected !== undefined && rejected !== false) || !Array.isArray(callValueInfo)) continue;
      if (typeof caller !== "string" || typeof to !== "string" || !TRON_HEX_ADDRESS.test(caller) || !TRON_HEX_ADDRESS.test(to)) continue;
      const fromKey = body(caller);
      const toKey = body(to);
      for (const [currency, rawAmount] of internalAmounts(callValueInfo)) {
        collectMatches(
          index,
          { coin: "TRX", toKey, fromKey },
          () => ({
            ...trxOrTrc10Transfer(data, currency, rawAmount, fromKey, toKey, txid, position, SUCCESS),
            internal: { traceAddress: null },
          }),
          matches,
        );
      }
    }
  }
}

/**
 * The positive amounts of one entry by currency ("TRX" or a TRC-10 id), in the node's order.
 * Malformed elements are skipped; one currency twice in an entry is summed, so a transfer's
 * identity (txid, position, currency) stays unique.
 */
function internalAmounts(callValueInfo: readonly unknown[]): Map<string, string> {
  const amounts = new Map<string, bigint>();
  for (const element of callValueInfo) {
    if (typeof element !== "object" || element === null) continue;
    const { callValue, tokenId } = element as { callValue?: unknown; tokenId?: unknown };
    // proto3 omits the empty tokenId of TRX; a token id is the TRC-10's numeric id.
    const currency =
      tokenId === undefined || tokenId === "" ? "TRX" : typeof tokenId === "string" && /^\d+$/.test(tokenId) ? tokenId : undefined;
    const amount = positiveInteger(callValue);
    if (currency === undefined || amount === undefined) continue;
    amounts.set(currency, (amounts.get(currency) ?? 0n) + amount);
  }
  return new Map([...amounts].map(([currency, amount]) => [currency, amount.toString()]));
}

/** An int64 as JSON gives it (a number, or the text the block source quotes beyond 2^53) when it is above 0. */
function positiveInteger(value: unknown): bigint | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return BigInt(value);
  if (typeof value === "string" && /^\d+$/.test(value) && BigInt(value) > 0n) return BigInt(value);
  return undefined;
}

/** TRX or a TRC-10 token (currency = its id, decimals = its precision): a transaction's own transfer or an internal one. */
function trxOrTrc10Transfer(
  data: TronBlockData,
  currency: string,
  rawAmount: Transfer["rawAmount"],
  fromKey: string,
  toKey: string,
  txid: string,
  position: number | null,
  executionStatus: Transfer["executionStatus"],
): Transfer {
  const decimals = currency === "TRX" ? TRX_DECIMALS : (data.trc10Decimals?.get(currency) ?? 0);
  return {
    coin: "TRX",
    currency,
    from: tronAddressFromEvmHex(fromKey).base58,
    to: tronAddressFromEvmHex(toKey).base58,
    amount: formatUnits(rawAmount, decimals),
    rawAmount,
    decimals,
    tokenContract: null,
    txid,
    position,
    executionStatus,
  };
}

/** A whitelisted TRC-20 transfer: from a reverted call's data (no log) or from a Transfer log. */
function trc20Transfer(
  token: WhitelistedToken,
  fromKey: string,
  toKey: string,
  rawAmount: Transfer["rawAmount"],
  txid: string,
  position: number | null,
  executionStatus: Transfer["executionStatus"],
): Transfer {
  return {
    coin: "TRX",
    currency: token.symbol,
    from: tronAddressFromEvmHex(fromKey).base58,
    to: tronAddressFromEvmHex(toKey).base58,
    amount: formatUnits(rawAmount, token.decimals),
    rawAmount,
    decimals: token.decimals,
    tokenContract: token.displayContract,
    txid,
    position,
    executionStatus,
  };
}

/** `asset_name` is the hex of the id's UTF-8 text ("31303030303031" → "1000001"); older nodes printed the id itself. */
function decodeAssetName(assetName: string): string {
  if (/^([0-9a-fA-F]{2})+$/.test(assetName)) {
    const text = Buffer.from(assetName, "hex").toString("utf8");
    if (/^\d+$/.test(text)) return text;
  }
  return assetName;
}
