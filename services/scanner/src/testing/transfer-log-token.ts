/**
 * A minimal ERC-20-like contract for Hardhat tests, hand-assembled (no compiler on the build
 * machines): `transfer(to, amount)` emits `Transfer(msg.sender, to, amount)` and stops; an amount
 * of 0 reverts. It keeps no balances: the scanner reads logs, not state.
 */
import { ERC20_TRANSFER_SELECTOR, ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

const RUNTIME = [
  "602435", // PUSH1 0x24 CALLDATALOAD            amount
  "8015", // DUP1 ISZERO
  "603657", // PUSH1 0x36 JUMPI                    amount == 0 → revert
  "600052", // PUSH1 0 MSTORE                      memory[0..32] = amount
  "600435", // PUSH1 4 CALLDATALOAD                to
  "33", // CALLER                                  from
  `7f${ERC20_TRANSFER_TOPIC}`, // PUSH32 Transfer topic
  "60206000", // PUSH1 32 PUSH1 0                  data = memory[0..32]
  "a300", // LOG3 STOP
  "5b600080fd", // JUMPDEST PUSH1 0 DUP1 REVERT
].join("");

const RUNTIME_LENGTH = RUNTIME.length / 2;
/** PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN: copies the runtime (after these 11 bytes) and returns it. */
const INIT = `60${RUNTIME_LENGTH.toString(16).padStart(2, "0")}80600b6000396000f3`;

/** Creation bytecode of the token. */
export const TRANSFER_LOG_TOKEN_BYTECODE = `0x${INIT}${RUNTIME}`;

/** Call data of `transfer(to, amount)`. */
export function transferCallData(to: string, amount: bigint): string {
  return `0x${ERC20_TRANSFER_SELECTOR}${to.slice(2).toLowerCase().padStart(64, "0")}${amount.toString(16).padStart(64, "0")}`;
}
