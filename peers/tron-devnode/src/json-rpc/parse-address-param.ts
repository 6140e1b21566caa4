import { parseAnyAddress } from "../address.ts";
import { parseHex, toHex } from "../hex.ts";
import { INVALID_PARAMS, RpcError } from "./rpc-error.ts";

/** An address parameter (20-byte `0x` hex, or 21-byte Tron hex) as 21-byte hex; throws INVALID_PARAMS otherwise. */
export function parseAddressParam(value: unknown): string {
  if (typeof value === "string") {
    const bytes = parseHex(value);
    if (bytes?.length === 20) return "41" + toHex(bytes);
    const tron = parseAnyAddress(value.replace(/^0x/, ""));
    if (tron && !value.startsWith("T")) return toHex(tron);
  }
  throw new RpcError(INVALID_PARAMS, "invalid address hash value");
}
