/** Blocks: eth_getBlockByNumber/ByHash and eth_getBlockTransactionCountByNumber/ByHash. */
import type { Ledger } from "../ledger.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { blockFromTag } from "./block-tag.ts";
import { quantity } from "./eth-format.ts";
import { blockObject } from "./eth-objects.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";

/** The block a `0x` blockID parameter names, or undefined. */
export function blockFromHash(ledger: Ledger, hash: unknown): StoredBlock | undefined {
  return typeof hash === "string" ? ledger.blockById(hash.replace(/^0x/, "")) : undefined;
}

/** The block methods. */
export function blockMethods({ ledger }: JsonRpcContext): JsonRpcMethods {
  return {
    eth_getBlockByNumber: (params) => {
      const block = blockFromTag(ledger, params[0]);
      return block ? blockObject(block, params[1] === true) : null;
    },
    eth_getBlockByHash: (params) => {
      const block = blockFromHash(ledger, params[0]);
      return block ? blockObject(block, params[1] === true) : null;
    },
    eth_getBlockTransactionCountByNumber: (params) => {
      const block = blockFromTag(ledger, params[0]);
      return block ? quantity(block.transactions.length) : null;
    },
    eth_getBlockTransactionCountByHash: (params) => {
      const block = blockFromHash(ledger, params[0]);
      return block ? quantity(block.transactions.length) : null;
    },
  };
}
