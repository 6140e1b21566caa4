/** Tron knowledge shared by the trx-proxy, the scanner, the delivery and the simulator. */
export {
  TRON_ADDRESS_PREFIX,
  addressAbiWord,
  addressFromPrivateKey,
  isTronAddressBytes,
  parseTronAddress,
  parseTronBase58,
  tronAddressFromBytes,
  tronAddressFromEvmHex,
  tronAddressFromPublicKey,
  tronEvmHex,
  type TronAddress,
} from "./tron-address.ts";
export { DEFAULT_TRC20_WHITELIST, trc20WhitelistSchema, trc20WhitelistSettings, type Trc20Token } from "./trc20-whitelist.ts";
export { tronNodeAuth, tronNodeAuthSettings, type TronNodeAuth } from "./tron-node-settings.ts";
export { recoverTronSigner, signTronTransactionId, tronTransactionId } from "./tron-signature.ts";
export { TRX_DECIMALS } from "./tron-units.ts";
