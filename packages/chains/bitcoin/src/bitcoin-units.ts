/** Bitcoin's base unit is the satoshi: 1 BTC = 10^8 sat. */
export const BITCOIN_DECIMALS = 8;
