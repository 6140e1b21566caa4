/** Execution statuses and tokens of the operator's whitelists (native decimals live in the chain packages). */

/** The execution status of a transfer that took effect. */
export const SUCCESS = "SUCCESS";
/** An Ethereum transaction whose receipt has status 0. */
export const FAILED = "FAILED";

/** A token whose Transfer logs are reported (an operator's whitelist entry). */
export interface WhitelistedToken {
  /** ETH: 0x + 40 hex, lower case; TRX: the 40 hex digits of the contract's body (the 20-byte EVM form). */
  contract: string;
  /** The contract as shown in notifications: 0x… lower case (ETH), T… (TRX). */
  displayContract: string;
  symbol: string;
  decimals: number;
}
