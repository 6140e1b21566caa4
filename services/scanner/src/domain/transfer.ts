/** What the matchers find: one transfer of one asset in one block, and the webhooks watching it. */
import type { Coin } from "@chaingate/contracts";

/** One movement of value, as the chain records it; amounts exact. */
export interface Transfer {
  coin: Coin;
  /** "BTC", "ETH", "TRX", a TRC-10 token id, or a token symbol such as "USDT". */
  currency: string;
  from: string | null;
  to: string;
  /** Decimal string in whole units. */
  amount: string;
  /** Integer string in base units. */
  rawAmount: string;
  decimals: number;
  tokenContract: string | null;
  txid: string;
  /**
   * Output index (BTC), log index (token transfer logs), the frame's index in the call tree walked
   * depth first (Ethereum internal transfers; the top-level call is 0), the entry's index in
   * `internal_transactions` (Tron internal transfers); null for a transaction's own account transfer.
   */
  position: number | null;
  /** "SUCCESS", "FAILED" (an Ethereum receipt with status 0) or Tron's contractRet, e.g. "OUT_OF_ENERGY". */
  executionStatus: string;
  /** Set when a contract moved the value inside the transaction (an internal transfer). */
  internal?: InternalOrigin | undefined;
}

/** Where inside its transaction an internal transfer happened. */
export interface InternalOrigin {
  /** Ethereum: the frame's call path, e.g. "0.2" (third call of the first call; parity's traceAddress); null on Tron. */
  traceAddress: string | null;
}

/** A transfer × a webhook that watches one of its addresses. */
export interface Match {
  transfer: Transfer;
  webhookId: number;
  /** The watched address as the webhook lists it (the receiving side when both are watched). */
  watchedAddress: string;
  /** "in": the watched address is the receiving side; "out": the sending side. Absent in matches stored before it existed. */
  direction?: "in" | "out";
  /** Depth the block must reach before it is notified. */
  confirmations: number;
}

/** The block fields every chain has, as the follower needs them. */
export interface BlockHeader {
  height: number;
  hash: string;
  /** null for a genesis block. */
  parentHash: string | null;
  /** Block time, ms since the epoch. */
  timeMs: number;
  txCount: number;
}
