/** Bitcoin knowledge shared by the btc-proxy, the scanner, the delivery and the xpub service. */
export {
  BITCOIN_NETWORKS,
  DEFAULT_BITCOIN_NETWORK,
  bitcoinNetworkSettings,
  isBitcoinNetwork,
  type BitcoinAddressForms,
  type BitcoinNetwork,
} from "./bitcoin-network.ts";
export { normalizeBitcoinAddress, p2wpkhAddress } from "./bitcoin-address.ts";
export { bitcoinNodeAuth, bitcoinNodeAuthSettings, type BitcoinNodeAuth } from "./bitcoin-node-settings.ts";
export { hash160 } from "./hash160.ts";
export { BITCOIN_DECIMALS } from "./bitcoin-units.ts";
