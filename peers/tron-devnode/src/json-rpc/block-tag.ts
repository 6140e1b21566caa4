/** Block parameters: a number or a tag (`latest`, `earliest`, `finalized`; `pending` is refused). */
import type { Ledger } from "../ledger.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { INVALID_PARAMS, RpcError } from "./rpc-error.ts";

/** TronJsonRpcImpl's messages. */
const TAG_PENDING_SUPPORT_ERROR = "TAG pending not supported";
const TAG_NOT_SUPPORT_ERROR = "TAG [earliest | pending | finalized] not supported";
const QUANTITY_NOT_SUPPORT_ERROR = "QUANTITY not supported, just support TAG as latest";
const BLOCK_NUM_ERROR = "invalid block number";

/** JsonRpcApiUtil.getByJsonBlockId: -1 for latest (or absent), the solid block for finalized; `pending` is refused. */
export function blockNumberFromTag(ledger: Ledger, tag: unknown): number {
  const text = typeof tag === "string" ? tag.toLowerCase() : tag;
  if (text === "pending") throw new RpcError(INVALID_PARAMS, TAG_PENDING_SUPPORT_ERROR);
  if (text === undefined || text === null || text === "" || text === "latest") return -1;
  if (text === "earliest") return 0;
  if (text === "finalized") return ledger.solid.raw.number;
  if (typeof text === "string" && /^0x[0-9a-f]+$/.test(text)) return Number.parseInt(text, 16);
  throw new RpcError(INVALID_PARAMS, BLOCK_NUM_ERROR);
}

/** The block a number or tag names, or undefined. */
export function blockFromTag(ledger: Ledger, tag: unknown): StoredBlock | undefined {
  const number = blockNumberFromTag(ledger, tag);
  return number === -1 ? ledger.head : ledger.blockByNumber(number);
}

/** TronJsonRpcImpl.getTrxBalance and friends: only `latest` (or nothing). */
export function requireLatest(tag: unknown): void {
  if (tag === undefined || (typeof tag === "string" && tag.toLowerCase() === "latest")) return;
  if (typeof tag === "string" && ["earliest", "pending", "finalized"].includes(tag.toLowerCase()))
    throw new RpcError(INVALID_PARAMS, TAG_NOT_SUPPORT_ERROR);
  if (typeof tag === "string" && /^0x[0-9a-fA-F]+$/.test(tag)) throw new RpcError(INVALID_PARAMS, QUANTITY_NOT_SUPPORT_ERROR);
  throw new RpcError(INVALID_PARAMS, BLOCK_NUM_ERROR);
}
