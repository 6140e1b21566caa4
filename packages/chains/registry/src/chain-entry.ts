/**
 * What chaingate knows about a chain, in one place: every service reads these facts from the
 * registry instead of keeping its own table (issue #31). An entry holds facts about the chain
 * itself, never about a deployment (node URLs, credentials and poll intervals are settings).
 */

/** How a chain's nodes are read and its addresses written: one implementation per kind. */
export type ChainKind = "bitcoin" | "evm" | "tron";

/** Whether a webhook's `include_tokens` is its choice, always on (the spec's TRX) or meaningless (BTC). */
export type TokenReporting = "optional" | "never" | "always";

export interface ChainEntry<Coin extends string = string> {
  /** The spec's `coin`: how webhooks, events, subjects and metrics name the chain. */
  coin: Coin;
  /** The chain's API path segment (`/api/v1/{prefix}/…`): its coin, lower-case. */
  prefix: string;
  /** A name for people (logs, the console, the docs). */
  name: string;
  kind: ChainKind;
  /** The native currency: the symbol transfers carry as `currency`, and its decimals. */
  native: { symbol: string; decimals: number };
  /** The CAIP-2 namespace of the `chain` id events carry (bip122, eip155, tron). */
  caip2Namespace: "bip122" | "eip155" | "tron";
  /** For an EVM chain of a known network: the `eth_chainId` its nodes must answer (the built-in ETH takes its node's). */
  evmChainId?: number;
  /** SLIP-44 coin type in the paths its addresses are derived on (m/purpose'/type'/account'/…; mainnet's). */
  slip44: number;
  /** Seconds between blocks, on average. */
  blockSeconds: number;
  /**
   * `confirmations` a webhook gets when it asks for none, and the most it may ask for: the
   * maximum sits inside the reorg window, so a transfer waiting for its confirmations is always
   * published (or reverted) before its block is pruned.
   */
  confirmations: { default: number; max: number };
  /** Blocks the scanner keeps behind its cursor by default: the deepest reorg it can undo. */
  reorgWindow: number;
  tokenReporting: TokenReporting;
  /** Whether the chain's nodes show a mempool, so a webhook may ask for `pending` events. */
  pendingEvents: boolean;
}
