/** Read-only contract calls: eth_call and eth_estimateGas. */
import { parseHex, toHex } from "../hex.ts";
import type { Ledger } from "../ledger.ts";
import { requireLatest } from "./block-tag.ts";
import { quantity } from "./eth-format.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";
import { parseAddressParam } from "./parse-address-param.ts";
import { EXECUTION_ERROR, RpcError } from "./rpc-error.ts";

/** Runs the call object `params[0]` without committing it: its return data and energy (nothing for a non-contract). */
function constantCall(ledger: Ledger, params: unknown[]): { data: Uint8Array; energy: number } {
  const args = (params[0] ?? {}) as Record<string, unknown>;
  const from = args.from === undefined ? "41" + "00".repeat(20) : parseAddressParam(args.from);
  const to = parseAddressParam(args.to);
  const data = parseHex(typeof args.data === "string" ? args.data : typeof args.input === "string" ? args.input : "0x") ?? new Uint8Array();
  const result = ledger.callConstant({
    owner_address: Buffer.from(from, "hex"),
    contract_address: Buffer.from(to, "hex"),
    data,
    call_value: 0,
    call_token_value: 0,
    token_id: 0,
  });
  if (result.kind === "noContract") return { data: new Uint8Array(), energy: 0 };
  if (result.execution.status === "REVERT") throw new RpcError(EXECUTION_ERROR, "REVERT opcode executed");
  return { data: result.execution.returnData, energy: result.execution.energyUsed };
}

/** The call methods. */
export function callMethods({ ledger }: JsonRpcContext): JsonRpcMethods {
  return {
    eth_call: (params) => {
      requireLatest(params[1]);
      return "0x" + toHex(constantCall(ledger, params).data);
    },
    eth_estimateGas: (params) => quantity(constantCall(ledger, params).energy),
  };
}
