/** Path and query values of the Ethereum endpoints, checked before the node is contacted. */
import { ETH_BLOCK_TAGS, ETH_HASH, isEthBlockParameter } from "@chaingate/contracts";
import { isEthereumAddress } from "@chaingate/ethereum";
import { EthBadParameterError } from "./request-errors.ts";

const DEFAULT_BLOCK = "latest";
const DECIMAL = /^\d{1,15}$/;

export function addressParameter(value: unknown): string {
  if (typeof value !== "string" || !isEthereumAddress(value))
    throw new EthBadParameterError("The address must be a 0x-prefixed 20-byte hex address.");
  return value;
}

export function hashParameter(value: unknown, name: string): string {
  if (typeof value !== "string" || !ETH_HASH.test(value))
    throw new EthBadParameterError(`The ${name} must be a 0x-prefixed 32-byte hex hash.`);
  return value;
}

/** A block query value: hex QUANTITY or tag, default latest. */
export function blockParameter(value: string | undefined, name = "block"): string {
  if (value === undefined) return DEFAULT_BLOCK;
  if (!isEthBlockParameter(value))
    throw new EthBadParameterError(`The ${name} parameter must be a hex QUANTITY or one of ${ETH_BLOCK_TAGS.join(", ")}.`);
  return value;
}

/** A block in a path: as blockParameter, and a decimal number too (converted to QUANTITY). */
export function blockPathParameter(value: unknown): string {
  if (typeof value === "string" && DECIMAL.test(value)) return `0x${Number(value).toString(16)}`;
  if (typeof value !== "string" || !isEthBlockParameter(value))
    throw new EthBadParameterError(`The block must be a decimal number, a hex QUANTITY or one of ${ETH_BLOCK_TAGS.join(", ")}.`);
  return value;
}

export function booleanParameter(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new EthBadParameterError(`The ${name} parameter must be true or false.`);
}
