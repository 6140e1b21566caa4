/**
 * Defaults for the EVM chains operators add most (EVM_CHAINS): naming one of these needs only its
 * node URLs. Sources for each fact, and the confirmations exchanges use, are in docs/chains.md;
 * the maxima cover full finality when a chain's fast path fails, and each reorg window holds its
 * maximum. Token lists are the issuers' contracts (BNB Chain's are Binance-Peg tokens with 18
 * decimals); an operator's `tokens` replaces a list as a whole.
 */
import type { Erc20Token } from "@chaingate/ethereum";

export interface WellKnownEvmChain {
  chainId: number;
  symbol: string;
  blockSeconds: number;
  maxConfirmations: number;
  reorgWindow: number;
  tokens: readonly Erc20Token[];
}

const token = (symbol: string, contract: string, decimals: number): Erc20Token => ({ symbol, contract: contract.toLowerCase(), decimals });

export const WELL_KNOWN_EVM_CHAINS: Readonly<Record<string, WellKnownEvmChain>> = {
  polygon: {
    chainId: 137,
    symbol: "POL",
    blockSeconds: 2,
    // Milestones finalize in seconds, but reorgs of 32 blocks were common before them, and one of 157.
    maxConfirmations: 256,
    reorgWindow: 320,
    tokens: [
      token("USDT", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6),
      token("USDC", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6),
    ],
  },
  bsc: {
    chainId: 56,
    symbol: "BNB",
    blockSeconds: 0.45,
    // Fast finality makes block n final at n+2; without it, 2/3 of the validators have built on it after 240.
    maxConfirmations: 240,
    reorgWindow: 300,
    tokens: [
      token("USDT", "0x55d398326f99059fF775485246999027B3197955", 18),
      token("USDC", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
    ],
  },
  arbitrum: {
    chainId: 42161,
    symbol: "ETH",
    blockSeconds: 0.25,
    // Final when its batch is in a finalized Ethereum block (13–20 min): 7,200 blocks is 30 min at 4 a second.
    maxConfirmations: 7_200,
    reorgWindow: 7_200,
    tokens: [
      token("USDT", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6),
      token("USDC", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6),
    ],
  },
  base: {
    chainId: 8453,
    symbol: "ETH",
    blockSeconds: 2,
    // Final about 20 min after its batch; 900 blocks is 30 min. Tether issues no USDT on Base.
    maxConfirmations: 900,
    reorgWindow: 1_000,
    tokens: [token("USDC", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6)],
  },
  optimism: {
    chainId: 10,
    symbol: "ETH",
    blockSeconds: 2,
    maxConfirmations: 900,
    reorgWindow: 1_000,
    tokens: [
      token("USDT", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6),
      token("USDC", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6),
    ],
  },
  avalanche: {
    chainId: 43114,
    symbol: "AVAX",
    blockSeconds: 1,
    // Snowman finality is irreversible in about a second; the window guards against load-balanced nodes that disagree.
    maxConfirmations: 20,
    reorgWindow: 32,
    tokens: [
      token("USDT", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6),
      token("USDC", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", 6),
    ],
  },
};
