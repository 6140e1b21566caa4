import { TAPOS_RECENT_BLOCKS } from "../chain-parameters.ts";
import { bytesEqual } from "../hex.ts";
import type { TransactionRaw } from "../transaction.ts";
import { headBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { TransactionRejected } from "./transaction-rejected.ts";

/** TAPOS: ref_block_bytes are bytes 6..8 of the 8-byte block number, ref_block_hash bytes 8..16 of the blockID. */
export const REF_BLOCK_BYTES_RANGE = [6, 8] as const;
export const REF_BLOCK_HASH_RANGE = [8, 16] as const;

/** TAPOS: the transaction must reference one of the recent blocks of this chain; throws TAPOS_ERROR. */
export function validateTapos(chain: LedgerChain, raw: TransactionRaw): void {
  const refBytes = raw.refBlockBytes;
  const headNumber = headBlock(chain).raw.number;
  if (refBytes.length === 2) {
    const low = ((refBytes[0] ?? 0) << 8) | (refBytes[1] ?? 0);
    // The most recent block whose number ends in these two bytes (java-tron's RecentBlockStore).
    const candidate = headNumber - ((headNumber - low + TAPOS_RECENT_BLOCKS) % TAPOS_RECENT_BLOCKS);
    const block = candidate >= 0 ? chain.blocks[candidate] : undefined;
    if (block && bytesEqual(block.id.subarray(...REF_BLOCK_HASH_RANGE), raw.refBlockHash)) return;
  }
  throw new TransactionRejected("TAPOS_ERROR", "Tapos check error.");
}
