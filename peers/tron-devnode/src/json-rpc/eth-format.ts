/** Ethereum JSON-RPC value formats. */

export const ZERO_HASH = "0x" + "00".repeat(32);
export const EMPTY_BLOOM = "0x" + "00".repeat(256);

/** A QUANTITY: `0x` and hex without leading zeros. */
export function quantity(value: number | bigint): string {
  return "0x" + value.toString(16);
}

/** The 20-byte `0x` address of a 21-byte Tron hex address. */
export function evmAddress(hex21: string): string {
  return "0x" + hex21.slice(2);
}
