/**
 * Tron blocks through the shared node client (java-tron's HTTP API): `getnowblock` for the tip,
 * `getblockbynum` and `gettransactioninfobyblocknum` per block (addresses in hex, visible=false),
 * `getblock` without details for a hash, `getassetissuebyid` once per TRC-10 id for its precision
 * (the ids of TransferAssetContracts and of the tokens contracts sent, in `internal_transactions`).
 * Integers of 16 digits or more are quoted before parsing, so amounts beyond 2^53 stay exact.
 *
 * The block and its transaction infos are two reads: a block is only returned with exactly one info
 * per transaction of that block (java-tron answers them together from one block's record), each of
 * the height asked for. A lagging backend's `[]`, or infos of another fork, throw BlockNotReadyError
 * and the follower retries later instead of missing TRC-20 deposits.
 */
import { text } from "node:stream/consumers";
import type { NodeClient } from "@chaingate/node-client";
import type { TronBlock, TronBlockData, TronTransactionInfo } from "../domain/match-tron-block.ts";
import type { BlockSource } from "../domain/ports.ts";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";

/** A JSON integer a double may not hold exactly, in value position. */
const LONG_INTEGER = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

/** JSON.parse with long integers kept as their text (they reach the matcher as strings). */
export function parseTronJson(body: string): unknown {
  return JSON.parse(body.replace(LONG_INTEGER, '$1"$2"'));
}

/** An info as the node answers it: its block number is checked against the height asked for. */
interface TransactionInfoAnswer extends TronTransactionInfo {
  blockNumber?: number | string;
}

/** The infos when they are exactly those of `block` at `height`; throws BlockNotReadyError otherwise. */
export function infosOfBlock(
  block: TronBlock,
  height: number,
  answer: TransactionInfoAnswer[] | Record<string, never>,
): TronTransactionInfo[] {
  const notReady = (reason: string) => new BlockNotReadyError("TRX", height, reason);
  const number = block.block_header.raw_data.number ?? 0;
  if (number !== height) throw notReady(`getblockbynum answered block ${number}`);
  const txids = (block.transactions ?? []).map((tx) => tx.txID.toLowerCase());
  // java-tron answers {} instead of [] for heights <= 0.
  const infos = Array.isArray(answer) ? answer : [];
  if (infos.length !== txids.length) throw notReady(`${infos.length} transaction infos for ${txids.length} transactions`);
  const ids = infos.map((info) => String(info.id).toLowerCase());
  const expected = new Set(txids);
  const stray = ids.find((id) => !expected.has(id));
  if (stray !== undefined || new Set(ids).size !== ids.length)
    throw notReady(`the transaction infos are not of the block's transactions${stray === undefined ? "" : ` (${stray})`}`);
  const elsewhere = infos.find((info) => Number(info.blockNumber) !== height);
  if (elsewhere) throw notReady(`the info of ${elsewhere.id} is of block ${elsewhere.blockNumber}`);
  return infos;
}

/**
 * The TRC-10 ids whose precision the matcher may need: those of TransferAssetContracts and the
 * numeric `tokenId`s of internal transactions (malformed ones are the matcher's to skip).
 */
export function trc10Ids(block: TronBlock, infos: readonly TronTransactionInfo[]): Set<string> {
  const ids = new Set<string>();
  for (const tx of block.transactions ?? []) {
    const contract = tx.raw_data.contract[0];
    if (contract?.type !== "TransferAssetContract") continue;
    const name = contract.parameter.value.asset_name ?? "";
    ids.add(/^([0-9a-fA-F]{2})+$/.test(name) ? Buffer.from(name, "hex").toString("utf8") : name);
  }
  for (const info of infos) {
    if (!Array.isArray(info.internal_transactions)) continue;
    for (const entry of info.internal_transactions as unknown[]) {
      const values = typeof entry === "object" && entry !== null ? (entry as { callValueInfo?: unknown }).callValueInfo : undefined;
      if (!Array.isArray(values)) continue;
      for (const value of values as unknown[]) {
        const tokenId = typeof value === "object" && value !== null ? (value as { tokenId?: unknown }).tokenId : undefined;
        if (typeof tokenId === "string" && /^\d+$/.test(tokenId)) ids.add(tokenId);
      }
    }
  }
  return ids;
}

export function createTronBlockSource(node: NodeClient): BlockSource<TronBlockData> {
  const precision = new Map<string, number>();

  async function post<T>(path: string, body: object): Promise<T> {
    const response = await node.requestRaw(path, { method: "POST", body });
    return parseTronJson(await text(response.body)) as T;
  }

  async function trc10Decimals(block: TronBlock, infos: readonly TronTransactionInfo[]): Promise<Map<string, number>> {
    const ids = trc10Ids(block, infos);
    const missing = [...ids].filter((id) => !precision.has(id));
    await Promise.all(
      missing.map(async (id) => {
        const issue = await post<{ precision?: number }>("/wallet/getassetissuebyid", { value: id });
        precision.set(id, issue.precision ?? 0);
      }),
    );
    return new Map([...ids].map((id) => [id, precision.get(id) ?? 0]));
  }

  return {
    async tipHeight() {
      // The newest block's header only (no id: the head); getnowblock would carry every transaction.
      const head = await post<TronBlock>("/wallet/getblock", { detail: false });
      return head.block_header.raw_data.number ?? 0;
    },
    async hashAt(height) {
      const block = await post<Partial<TronBlock>>("/wallet/getblock", { id_or_num: String(height), detail: false });
      return block.blockID ?? null;
    },
    async blockAt(height) {
      const [block, infos] = await Promise.all([
        post<Partial<TronBlock>>("/wallet/getblockbynum", { num: height }),
        post<TransactionInfoAnswer[] | Record<string, never>>("/wallet/gettransactioninfobyblocknum", { num: height }),
      ]);
      if (!block.blockID || !block.block_header) return null;
      const full = block as TronBlock;
      const blockInfos = infosOfBlock(full, height, infos);
      return { block: full, infos: blockInfos, trc10Decimals: await trc10Decimals(full, blockInfos) };
    },
  };
}
