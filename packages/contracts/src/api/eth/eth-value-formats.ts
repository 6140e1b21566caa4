/** The EIP-1474 value formats of Ethereum JSON-RPC, as the eth-proxy checks its parameters. */

/** EIP-1474 QUANTITY: 0x-prefixed, no leading zeros (`0x0`, `0x5208`). */
export const ETH_QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
/** A 32-byte hash (block or transaction). */
export const ETH_HASH = /^0x[0-9a-fA-F]{64}$/;
/** EIP-1474 DATA: 0x-prefixed, whole bytes. */
export const ETH_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
/** The block tags every current execution client knows. */
export const ETH_BLOCK_TAGS = ["latest", "earliest", "pending", "safe", "finalized"] as const;

/** True for a hex QUANTITY or one of the block tags. */
export function isEthBlockParameter(value: string): boolean {
  return (ETH_BLOCK_TAGS as readonly string[]).includes(value) || ETH_QUANTITY.test(value);
}
