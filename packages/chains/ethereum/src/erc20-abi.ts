/** The ERC-20 ABI words a transfer is recognised by; TRC-20 (Tron's TVM) uses the same ABI. */

/** keccak256("Transfer(address,address,uint256)"), 64 hex digits without 0x: topic 0 of a Transfer log. */
export const ERC20_TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** The selector of transfer(address,uint256), 8 hex digits without 0x: the first 4 bytes of its call data. */
export const ERC20_TRANSFER_SELECTOR = "a9059cbb";
