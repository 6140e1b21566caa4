/**
 * The chains the xpub service issues addresses for, by coin (the `chain` column of its keys): BTC,
 * ETH and each configured EVM chain of EVM_CHAINS (POLYGON, BSC, …).
 */
export type XpubChain = string;
