/** Request fields the builder and trigger servlets share: the call's data and the memo. */
import { keccak_256 } from "@noble/hashes/sha3";
import { parseBytesField, parseContractValue, parseInt64 } from "../transaction-json.ts";
import type { JsonObject } from "../transaction-json.ts";
import type { TransactionContract } from "../transaction.ts";

function functionData(params: JsonObject): Uint8Array {
  const selector = params.function_selector;
  if (typeof selector === "string" && selector.length > 0) {
    const parameter = parseBytesField(params.parameter ?? "", "parameter");
    return Uint8Array.from([...keccak_256(selector.replace(/\s/g, "")).subarray(0, 4), ...parameter]);
  }
  return parseBytesField(params.data, "data");
}

/** The TriggerSmartContract a trigger request describes (`data`, or `function_selector` with `parameter`). */
export function triggerContract(params: JsonObject, visible: boolean): Extract<TransactionContract, { type: "TriggerSmartContract" }> {
  const contract = parseContractValue(
    "TriggerSmartContract",
    { ...params, data: undefined },
    visible,
    parseInt64(params.Permission_id, "Permission_id"),
  );
  contract.value.data = functionData(params);
  return contract;
}

/** The memo (`extra_data`): text with `visible`, else hex. */
export function memo(params: JsonObject, visible: boolean): Uint8Array | undefined {
  const extra = params.extra_data;
  if (typeof extra !== "string" || extra.length === 0) return undefined;
  return visible ? new TextEncoder().encode(extra) : parseBytesField(extra, "extra_data");
}
