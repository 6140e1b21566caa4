/** Ethereum knowledge shared by the scanner, the eth-proxy, the trx-proxy (TRC-20 is ERC-20's ABI), the delivery and the xpub service. */
export {
  ETHEREUM_ADDRESS,
  ethereumAddressFromPublicKey,
  isEthereumAddress,
  normalizeEthereumAddress,
  toChecksumAddress,
} from "./ethereum-address.ts";
export { DEFAULT_ERC20_WHITELIST, erc20WhitelistSchema, erc20WhitelistSettings, type Erc20Token } from "./erc20-whitelist.ts";
export { decodeTransferCall, ERC20_TRANSFER_SELECTOR, ERC20_TRANSFER_TOPIC, type TransferCall } from "./erc20-abi.ts";
export { ETHER_DECIMALS } from "./ethereum-units.ts";
