/**
 * Per-coin address validation for webhook entries, returning the form that is stored and matched:
 * BTC as the node prints it (bech32 lower-cased), ETH lower-cased (the scanner compares lower
 * case), TRX in its Base58Check form only (the form notifications name it in). The rules of each
 * chain live in its package.
 */
import { normalizeBitcoinAddress, type BitcoinNetwork } from "@chaingate/bitcoin";
import type { Coin } from "@chaingate/contracts";
import { normalizeEthereumAddress } from "@chaingate/ethereum";
import { parseTronBase58 } from "@chaingate/tron";

/** The stored form of `input`, or null when it is no address of `coin`. */
export function normalizeAddress(coin: Coin, input: string, network: BitcoinNetwork): string | null {
  switch (coin) {
    case "ETH":
      return normalizeEthereumAddress(input);
    case "TRX":
      return parseTronBase58(input)?.base58 ?? null;
    case "BTC":
      return normalizeBitcoinAddress(input, network);
  }
}
