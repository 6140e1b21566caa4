/** Transactions and receipts: eth_getTransactionByHash/ByBlockNumberAndIndex/ByBlockHashAndIndex, eth_getTransactionReceipt. */
import { ENERGY_FEE_SUN } from "../chain-parameters.ts";
import type { Ledger } from "../ledger.ts";
import type { ExecutedTransaction } from "../ledger/executed-transaction.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { blockFromHash } from "./block-methods.ts";
import { blockFromTag } from "./block-tag.ts";
import { EMPTY_BLOOM, evmAddress, quantity } from "./eth-format.ts";
import { logObjects, ownerOf, recipientOf, transactionObject } from "./eth-objects.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";
import { INVALID_PARAMS, RpcError } from "./rpc-error.ts";

/** A transaction in a block, by `0x` txID, with its block and position. */
function locate(ledger: Ledger, hash: unknown): { entry: ExecutedTransaction; block: StoredBlock; index: number } | undefined {
  if (typeof hash !== "string") throw new RpcError(INVALID_PARAMS, "invalid hash value");
  const entry = ledger.executedTransaction(hash.replace(/^0x/, ""));
  const block = entry ? ledger.blockByNumber(entry.blockNumber) : undefined;
  if (!entry || !block) return undefined;
  return { entry, block, index: block.transactions.indexOf(entry) };
}

/** The transaction object at a `0x` index of a block, or null. */
function transactionAt(block: StoredBlock | undefined, indexParam: unknown): Record<string, unknown> | null {
  const index = Number.parseInt(String(indexParam ?? ""), 16);
  const entry = block?.transactions[index];
  return block && entry ? transactionObject(entry, block, index) : null;
}

/** eth_getTransactionReceipt's object; logs are numbered from the block's first log. */
function receiptObject(entry: ExecutedTransaction, block: StoredBlock, index: number): Record<string, unknown> {
  const previousLogs = block.transactions.slice(0, index).reduce((sum, other) => sum + other.logs.length, 0);
  const cumulative = block.transactions.slice(0, index + 1).reduce((sum, other) => sum + other.energyUsageTotal, 0);
  return {
    blockHash: "0x" + block.idHex,
    blockNumber: quantity(block.raw.number),
    contractAddress: null,
    cumulativeGasUsed: quantity(cumulative),
    effectiveGasPrice: quantity(ENERGY_FEE_SUN),
    from: evmAddress(ownerOf(entry)),
    gasUsed: quantity(entry.energyUsageTotal),
    logs: logObjects(entry, block, index, previousLogs),
    logsBloom: EMPTY_BLOOM,
    root: null,
    status: entry.transaction.contractRet === "SUCCESS" ? "0x1" : "0x0",
    to: recipientOf(entry),
    transactionHash: "0x" + entry.id,
    transactionIndex: quantity(index),
    type: "0x0",
  };
}

/** The transaction and receipt methods. */
export function transactionMethods({ ledger }: JsonRpcContext): JsonRpcMethods {
  return {
    eth_getTransactionByHash: (params) => {
      const found = locate(ledger, params[0]);
      return found ? transactionObject(found.entry, found.block, found.index) : null;
    },
    eth_getTransactionByBlockNumberAndIndex: (params) => transactionAt(blockFromTag(ledger, params[0]), params[1]),
    eth_getTransactionByBlockHashAndIndex: (params) => transactionAt(blockFromHash(ledger, params[0]), params[1]),
    eth_getTransactionReceipt: (params) => {
      const found = locate(ledger, params[0]);
      return found ? receiptObject(found.entry, found.block, found.index) : null;
    },
  };
}
