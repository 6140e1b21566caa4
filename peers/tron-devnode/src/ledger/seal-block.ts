import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { computeBlockId, encodeBlockHeaderRaw } from "../block.ts";
import type { BlockHeaderRaw } from "../block.ts";
import { concatBytes, toHex } from "../hex.ts";
import type { LedgerState } from "../ledger-state.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import type { StoredBlock } from "./stored-block.ts";

/** Block header version the devnode writes (java-tron 4.8). */
export const BLOCK_VERSION = 34;

/** Signs a block header with the witness key and appends the block to the chain. */
export function sealBlock(
  chain: LedgerChain,
  number: number,
  timestamp: number,
  parentHash: Uint8Array,
  txTrieRoot: Uint8Array,
  transactions: ExecutedTransaction[],
  state: LedgerState,
): StoredBlock {
  const raw: BlockHeaderRaw = {
    timestamp,
    txTrieRoot,
    parentHash,
    number,
    witnessId: 0,
    witnessAddress: Buffer.from(chain.genesis.witness.hex, "hex"),
    version: BLOCK_VERSION,
    accountStateRoot: new Uint8Array(),
  };
  const signature = secp256k1.sign(sha256(encodeBlockHeaderRaw(raw)), chain.genesis.witness.privateKey, { lowS: true });
  const witnessSignature = concatBytes(signature.toCompactRawBytes(), Uint8Array.of(signature.recovery));
  const id = computeBlockId(raw);
  const block: StoredBlock = { raw, id, idHex: toHex(id), witnessSignature, transactions, state };
  chain.blocks.push(block);
  chain.blocksById.set(block.idHex, block);
  return block;
}
