/**
 * Per-chain address validation for webhook entries, returning the form that is stored and matched:
 * BTC as the node prints it (bech32 lower-cased), ETH and every other EVM chain lower-cased (the
 * scanner compares lower case), TRX in its Base58Check form only (the form notifications name it
 * in). The rules of each kind of chain live in its package.
 */
import { normalizeBitcoinAddress, type BitcoinNetwork } from "@chaingate/bitcoin";
import type { ChainKind } from "@chaingate/chain-registry";
import { normalizeEthereumAddress } from "@chaingate/ethereum";
import { parseTronBase58 } from "@chaingate/tron";

/** The stored form of `input`, or null when it is no address of a chain of `kind`. */
export function normalizeAddress(kind: ChainKind, input: string, network: BitcoinNetwork): string | null {
  switch (kind) {
    case "evm":
      return normalizeEthereumAddress(input);
    case "tron":
      return parseTronBase58(input)?.base58 ?? null;
    case "bitcoin":
      return normalizeBitcoinAddress(input, network);
  }
}
