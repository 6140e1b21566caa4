/** Block headers: serialisation, blockID and txTrieRoot exactly as java-tron computes them. */
import { sha256 } from "@noble/hashes/sha2";
import { concatBytes } from "./hex.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";

/** `BlockHeader.raw` [Tron.proto]. */
export interface BlockHeaderRaw {
  timestamp: number;
  txTrieRoot: Uint8Array;
  parentHash: Uint8Array;
  number: number;
  witnessId: number;
  witnessAddress: Uint8Array;
  version: number;
  accountStateRoot: Uint8Array;
}

const HASH_LENGTH = 32;
const BLOCK_NUMBER_BYTES = 8;

/** Serialises `BlockHeader.raw` (field order timestamp=1, txTrieRoot=2, parentHash=3, number=7, witness_id=8, witness_address=9, version=10, accountStateRoot=11). */
export function encodeBlockHeaderRaw(raw: BlockHeaderRaw): Uint8Array {
  return new ProtobufWriter()
    .varint(1, raw.timestamp)
    .bytes(2, raw.txTrieRoot)
    .bytes(3, raw.parentHash)
    .varint(7, raw.number)
    .varint(8, raw.witnessId)
    .bytes(9, raw.witnessAddress)
    .varint(10, raw.version)
    .bytes(11, raw.accountStateRoot)
    .finish();
}

/** Serialises a whole `BlockHeader` (raw + witness signature). */
export function encodeBlockHeader(raw: BlockHeaderRaw, witnessSignature: Uint8Array): Uint8Array {
  return new ProtobufWriter().message(1, encodeBlockHeaderRaw(raw)).bytes(2, witnessSignature).finish();
}

/** blockID: 8-byte big-endian block number ‖ sha256(raw header)[8..32]. */
export function computeBlockId(raw: BlockHeaderRaw): Uint8Array {
  const id = sha256(encodeBlockHeaderRaw(raw));
  new DataView(id.buffer, id.byteOffset, BLOCK_NUMBER_BYTES).setBigUint64(0, BigInt(raw.number));
  return id;
}

/**
 * txTrieRoot: a binary SHA-256 Merkle tree over sha256(serialised Transaction incl. signatures and ret);
 * an odd node is promoted unchanged; no transactions gives 32 zero bytes.
 */
export function computeTxTrieRoot(serialisedTransactions: Uint8Array[]): Uint8Array {
  if (serialisedTransactions.length === 0) return new Uint8Array(HASH_LENGTH);
  let level = serialisedTransactions.map((transaction) => sha256(transaction));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let index = 0; index < level.length; index += 2) {
      const left = level[index] as Uint8Array;
      const right = level[index + 1];
      next.push(right ? sha256(concatBytes(left, right)) : left);
    }
    level = next;
  }
  return level[0] as Uint8Array;
}
