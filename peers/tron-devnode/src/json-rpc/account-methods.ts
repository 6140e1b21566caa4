/** Account state at `latest`: eth_getBalance, eth_getCode, eth_getStorageAt. */
import { devnodeRuntimeCode } from "../print-chain-json.ts";
import { requireLatest } from "./block-tag.ts";
import { ZERO_HASH, quantity } from "./eth-format.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";
import { parseAddressParam } from "./parse-address-param.ts";

/** The account-state methods. */
export function accountMethods({ ledger }: JsonRpcContext): JsonRpcMethods {
  return {
    eth_getBalance: (params) => {
      requireLatest(params[1]);
      return quantity(ledger.pendingView.accounts.get(parseAddressParam(params[0]))?.balance ?? 0);
    },
    eth_getCode: (params) => {
      requireLatest(params[1]);
      const contract = ledger.contract(parseAddressParam(params[0]));
      return contract ? "0x" + devnodeRuntimeCode(contract) : "0x";
    },
    eth_getStorageAt: (params) => {
      requireLatest(params[2]);
      parseAddressParam(params[0]);
      return ZERO_HASH;
    },
  };
}
