/** Tron blocks, transactions and logs as Ethereum JSON-RPC objects. */
import { ENERGY_FEE_SUN } from "../chain-parameters.ts";
import { toHex } from "../hex.ts";
import type { ExecutedTransaction } from "../ledger/executed-transaction.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { EMPTY_BLOOM, ZERO_HASH, evmAddress, quantity } from "./eth-format.ts";

/** Gas limit reported for blocks (java-tron reports the block's energy limit; the devnode has no limit). */
const BLOCK_GAS_LIMIT = 0;

/** The 21-byte hex owner of a transaction's contract. */
export function ownerOf(entry: ExecutedTransaction): string {
  return toHex(entry.transaction.raw.contract[0]?.value.owner_address ?? new Uint8Array(21));
}

/** `to`: the called contract or the transfer's recipient. */
export function recipientOf(entry: ExecutedTransaction): string | null {
  const contract = entry.transaction.raw.contract[0];
  if (!contract) return null;
  return evmAddress(toHex(contract.type === "TriggerSmartContract" ? contract.value.contract_address : contract.value.to_address));
}

/** A transaction object (eth_getTransactionByHash and friends, full blocks). */
export function transactionObject(entry: ExecutedTransaction, block: StoredBlock, index: number): Record<string, unknown> {
  const contract = entry.transaction.raw.contract[0];
  const signature = entry.transaction.signatures[0] ?? new Uint8Array(65);
  return {
    blockHash: "0x" + block.idHex,
    blockNumber: quantity(block.raw.number),
    from: evmAddress(ownerOf(entry)),
    gas: quantity(entry.energyUsageTotal),
    gasPrice: quantity(ENERGY_FEE_SUN),
    hash: "0x" + entry.id,
    input: contract?.type === "TriggerSmartContract" ? "0x" + toHex(contract.value.data) : "0x",
    nonce: "0x0000000000000000",
    to: recipientOf(entry),
    transactionIndex: quantity(index),
    type: "0x0",
    value: quantity(
      contract?.type === "TransferContract"
        ? contract.value.amount
        : contract?.type === "TriggerSmartContract"
          ? contract.value.call_value
          : 0,
    ),
    v: quantity(signature[64] ?? 0),
    r: "0x" + toHex(signature.subarray(0, 32)),
    s: "0x" + toHex(signature.subarray(32, 64)),
  };
}

/** A transaction's log objects; `firstLogIndex` is the block-wide index of its first log. */
export function logObjects(
  entry: ExecutedTransaction,
  block: StoredBlock,
  index: number,
  firstLogIndex: number,
): Record<string, unknown>[] {
  return entry.logs.map((log, logIndex) => ({
    address: "0x" + toHex(log.address),
    blockHash: "0x" + block.idHex,
    blockNumber: quantity(block.raw.number),
    data: "0x" + toHex(log.data),
    logIndex: quantity(firstLogIndex + logIndex),
    removed: false,
    topics: log.topics.map((topic) => "0x" + toHex(topic)),
    transactionHash: "0x" + entry.id,
    transactionIndex: quantity(index),
  }));
}

/** A block object: transaction hashes, or (`full`) transaction objects. */
export function blockObject(block: StoredBlock, full: boolean): Record<string, unknown> {
  return {
    baseFeePerGas: "0x0",
    difficulty: "0x0",
    extraData: "0x",
    gasLimit: quantity(BLOCK_GAS_LIMIT),
    gasUsed: quantity(block.transactions.reduce((sum, entry) => sum + entry.energyUsageTotal, 0)),
    hash: "0x" + block.idHex,
    logsBloom: EMPTY_BLOOM,
    miner: evmAddress(toHex(block.raw.witnessAddress)),
    mixHash: ZERO_HASH,
    nonce: "0x0000000000000000",
    number: quantity(block.raw.number),
    parentHash: "0x" + toHex(block.raw.parentHash),
    receiptsRoot: ZERO_HASH,
    sha3Uncles: ZERO_HASH,
    size: quantity(0),
    stateRoot: ZERO_HASH,
    timestamp: quantity(Math.floor(block.raw.timestamp / 1000)),
    totalDifficulty: "0x0",
    transactions: block.transactions.map((entry, index) => (full ? transactionObject(entry, block, index) : "0x" + entry.id)),
    transactionsRoot: "0x" + toHex(block.raw.txTrieRoot),
    uncles: [],
  };
}
