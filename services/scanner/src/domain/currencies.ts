/** Native currencies and their base units; tokens of the operator's whitelists. */
export const BITCOIN_DECIMALS = 8;
export const ETHER_DECIMALS = 18;
export const TRX_DECIMALS = 6;

/** The execution status of a transfer that took effect. */
export const SUCCESS = "SUCCESS";
/** An Ethereum transaction whose receipt has status 0. */
export const FAILED = "FAILED";

/** A token whose Transfer logs are reported (an operator's whitelist entry). */
export interface WhitelistedToken {
  /** ETH: 0x + 40 hex, lower case; TRX: the 40 hex digits of the contract's body (see tron-address). */
  contract: string;
  /** The contract as shown in notifications: 0x… lower case (ETH), T… (TRX). */
  displayContract: string;
  symbol: string;
  decimals: number;
}

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** The selector of transfer(address,uint256). */
export const TRANSFER_SELECTOR = "a9059cbb";
