/** The chains the xpub service issues addresses for (stored in the `chain` column of its keys). */
export type XpubChain = "BTC" | "ETH";
