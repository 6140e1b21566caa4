/** The ERC-20 ABI words a transfer is recognised by; TRC-20 (Tron's TVM) uses the same ABI. */

/** keccak256("Transfer(address,address,uint256)"), 64 hex digits without 0x: topic 0 of a Transfer log. */
export const ERC20_TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** The selector of transfer(address,uint256), 8 hex digits without 0x: the first 4 bytes of its call data. */
export const ERC20_TRANSFER_SELECTOR = "a9059cbb";

/** A `transfer(address,uint256)` call's arguments: the recipient (40 hex digits, lower case, no 0x) and the amount word (64 hex digits). */
export interface TransferCall {
  recipient: string;
  amountHex: string;
}

/**
 * Decodes `transfer(to, amount)` call data, with or without its 0x (Ethereum input, Tron's
 * TriggerSmartContract `data`); undefined for any other call or data too short for both words.
 */
export function decodeTransferCall(data: string): TransferCall | undefined {
  const call = data.startsWith("0x") ? data.slice(2) : data;
  if (call.slice(0, 8).toLowerCase() !== ERC20_TRANSFER_SELECTOR || call.length < 8 + 128) return undefined;
  return { recipient: call.slice(8 + 24, 8 + 64).toLowerCase(), amountHex: call.slice(8 + 64, 8 + 128) };
}
