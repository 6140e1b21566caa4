/**
 * Tron: TRX (TransferContract), TRC-10 (TransferAssetContract) and TRC-20 (Transfer logs of the
 * operator's whitelist), each with the execution result. A whitelisted `transfer(…)` call that
 * failed (e.g. OUT_OF_ENERGY) leaves no log: it is reported from its call data with the failure
 * as its status, never as money received.
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
import { ERC20_TRANSFER_SELECTOR, ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

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
  for (const tx of data.block.transactions ?? []) {
    const contract = tx.raw_data.contract[0];
    if (!contract) continue;
    const value = contract.parameter.value;
    const status = tx.ret?.[0]?.contractRet ?? SUCCESS;
    if (contract.type === "TransferContract" || contract.type === "TransferAssetContract") {
      const fromKey = body(value.owner_address);
      const toKey = body(value.to_address);
      collectMatches(
        index,
        { coin: "TRX", toKey, fromKey },
        () => {
          const rawAmount = integerToBaseUnits(value.amount);
          const native = contract.type === "TransferContract";
          const currency = native ? "TRX" : decodeAssetName(value.asset_name ?? "");
          const decimals = native ? TRX_DECIMALS : (data.trc10Decimals?.get(currency) ?? 0);
          return {
            coin: "TRX",
            currency,
            from: tronAddressFromEvmHex(fromKey).base58,
            to: tronAddressFromEvmHex(toKey).base58,
            amount: formatUnits(rawAmount, decimals),
            rawAmount,
            decimals,
            tokenContract: null,
            txid: tx.txID,
            position: null,
            executionStatus: status,
          };
        },
        matches,
      );
    } else if (contract.type === "TriggerSmartContract" && status !== SUCCESS) {
      const token = tokens.get(body(value.contract_address));
      const call = value.data ?? "";
      if (!token || call.slice(0, 8).toLowerCase() !== ERC20_TRANSFER_SELECTOR || call.length < 8 + 128) continue;
      const fromKey = body(value.owner_address);
      const toKey = call.slice(8 + 24, 8 + 64).toLowerCase();
      collectMatches(
        index,
        { coin: "TRX", toKey, fromKey },
        () => trc20Transfer(token, fromKey, toKey, hexToBaseUnits(call.slice(8 + 64, 8 + 128)), tx.txID, null, status),
        matches,
      );
    }
  }
  for (const info of data.infos) {
    const logs = info.log;
    if (!logs) continue;
    for (let position = 0; position < logs.length; position++) {
      const log = logs[position]!;
      const token = tokens.get(body(log.address));
      const topics = log.topics;
      if (!token || !topics || topics.length !== 3 || topics[0]!.toLowerCase().replace(/^0x/, "") !== ERC20_TRANSFER_TOPIC) continue;
      const fromKey = body(topics[1]);
      const toKey = body(topics[2]);
      collectMatches(
        index,
        { coin: "TRX", toKey, fromKey },
        () => trc20Transfer(token, fromKey, toKey, hexToBaseUnits(log.data ?? ""), info.id, position, SUCCESS),
        matches,
      );
    }
  }
  return matches;
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
