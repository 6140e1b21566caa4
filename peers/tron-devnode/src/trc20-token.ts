/**
 * A native implementation of a standard TRC-20 token contract (no bytecode is executed): name, symbol,
 * decimals, totalSupply, balanceOf, transfer, approve, allowance, transferFrom, with Transfer/Approval logs
 * and configurable energy costs (see energy-costs.ts).
 */
import { keccak_256 } from "@noble/hashes/sha3";
import { fromEvmAddress, toEvmAddress } from "./address.ts";
import { energyPenalty } from "./energy-costs.ts";
import type { EnergyCosts } from "./energy-costs.ts";
import { concatBytes, toHex } from "./hex.ts";
import type { Trc20Token } from "./genesis.ts";
import type { Trc20Storage } from "./ledger-state.ts";

const WORD = 32;
const UINT256_MAX = (1n << 256n) - 1n;
const ERROR_STRING_SELECTOR = "08c379a0";

function selector(signature: string): string {
  return toHex(keccak_256(signature).subarray(0, 4));
}

function topic(signature: string): Uint8Array {
  return keccak_256(signature);
}

const SELECTORS = {
  name: selector("name()"),
  symbol: selector("symbol()"),
  decimals: selector("decimals()"),
  totalSupply: selector("totalSupply()"),
  balanceOf: selector("balanceOf(address)"),
  transfer: selector("transfer(address,uint256)"),
  approve: selector("approve(address,uint256)"),
  allowance: selector("allowance(address,address)"),
  transferFrom: selector("transferFrom(address,address,uint256)"),
};

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = topic("Transfer(address,address,uint256)");
const APPROVAL_TOPIC = topic("Approval(address,address,uint256)");

/** An EVM log as TransactionInfo reports it: 20-byte contract address (no 41). */
export interface EvmLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

/** The outcome of one call. */
export interface Trc20Execution {
  status: "SUCCESS" | "REVERT";
  /** Energy the call needs, the dynamic-energy penalty included. */
  energyUsed: number;
  /** The part of `energyUsed` that is penalty (`energy_penalty_total`). */
  energyPenalty: number;
  returnData: Uint8Array;
  logs: EvmLog[];
}

function uintWord(value: bigint): Uint8Array {
  const word = new Uint8Array(WORD);
  let rest = value;
  for (let index = WORD - 1; index >= 0 && rest > 0n; index -= 1) {
    word[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return word;
}

function addressWord(address21Hex: string): Uint8Array {
  const word = new Uint8Array(WORD);
  word.set(toEvmAddress(Buffer.from(address21Hex, "hex")), WORD - 20);
  return word;
}

function stringResult(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const padded = new Uint8Array(Math.ceil(bytes.length / WORD) * WORD);
  padded.set(bytes);
  return concatBytes(uintWord(32n), uintWord(BigInt(bytes.length)), padded);
}

/** ABI-encoded `Error(string)` revert data, as Solidity's require emits. */
export function revertData(message: string): Uint8Array {
  return concatBytes(Buffer.from(ERROR_STRING_SELECTOR, "hex"), stringResult(message));
}

/** An execution before the penalty is added: `energyUsed` is the base cost. */
type BaseExecution = Omit<Trc20Execution, "energyPenalty">;

function revert(energyUsed: number, message?: string): BaseExecution {
  return { status: "REVERT", energyUsed, returnData: message === undefined ? new Uint8Array() : revertData(message), logs: [] };
}

function success(energyUsed: number, returnData: Uint8Array, logs: EvmLog[] = []): BaseExecution {
  return { status: "SUCCESS", energyUsed, returnData, logs };
}

/** Reads argument word `index`; `undefined` if the call data is too short. */
function argumentWord(data: Uint8Array, index: number): Uint8Array | undefined {
  const start = 4 + index * WORD;
  return data.length >= start + WORD ? data.subarray(start, start + WORD) : undefined;
}

function readUint(data: Uint8Array, index: number): bigint | undefined {
  const word = argumentWord(data, index);
  return word ? BigInt("0x" + toHex(word)) : undefined;
}

/** Reads an address argument as 21-byte hex; `undefined` when missing or when the 12 high bytes are dirty (ABI v2 reverts). */
function readAddress(data: Uint8Array, index: number): string | undefined {
  const word = argumentWord(data, index);
  if (!word || word.subarray(0, WORD - 20).some((byte) => byte !== 0)) return undefined;
  return toHex(fromEvmAddress(word.subarray(WORD - 20)));
}

const TRUE_WORD = uintWord(1n);
const FALSE_WORD = uintWord(0n);

function moveBalance(storage: Trc20Storage, from: string, to: string, amount: bigint): { ok: true; newHolder: boolean } | { ok: false } {
  const fromBalance = storage.balances.get(from) ?? 0n;
  if (fromBalance < amount) return { ok: false };
  const toBalance = storage.balances.get(to) ?? 0n;
  const newHolder = toBalance === 0n && from !== to;
  storage.balances.set(from, fromBalance - amount);
  storage.balances.set(to, (storage.balances.get(to) ?? 0n) + amount);
  return { ok: true, newHolder };
}

function transferLog(token: Trc20Token, from: string, to: string, amount: bigint): EvmLog {
  return {
    address: toEvmAddress(Buffer.from(token.hex, "hex")),
    topics: [TRANSFER_TOPIC, addressWord(from), addressWord(to)],
    data: uintWord(amount),
  };
}

/**
 * Executes a call against the token's storage (mutating it on success; callers run it on a draft state).
 * `caller` is the 21-byte hex of msg.sender; `callValue`/`tokenValue` > 0 revert, as the functions are not payable.
 */
export function executeTrc20(
  token: Trc20Token,
  storage: Trc20Storage,
  caller: string,
  data: Uint8Array,
  callValue: number,
  tokenValue: number,
  costs: EnergyCosts,
): Trc20Execution {
  const execution = executeBase(token, storage, caller, data, callValue, tokenValue, costs);
  const penalty = energyPenalty(execution.energyUsed, costs);
  return { ...execution, energyUsed: execution.energyUsed + penalty, energyPenalty: penalty };
}

function executeBase(...[token, storage, caller, data, callValue, tokenValue, costs]: Parameters<typeof executeTrc20>): BaseExecution {
  if (callValue > 0 || tokenValue > 0) return revert(costs.revert);
  const functionSelector = toHex(data.subarray(0, 4));
  switch (functionSelector) {
    case SELECTORS.name:
      return success(costs.getter, stringResult(token.name));
    case SELECTORS.symbol:
      return success(costs.getter, stringResult(token.symbol));
    case SELECTORS.decimals:
      return success(costs.getter, uintWord(BigInt(token.decimals)));
    case SELECTORS.totalSupply:
      return success(costs.getter, uintWord(BigInt(token.totalSupply)));
    case SELECTORS.balanceOf: {
      const holder = readAddress(data, 0);
      if (holder === undefined) return revert(costs.revert, "invalid arguments");
      return success(costs.balanceOf, uintWord(storage.balances.get(holder) ?? 0n));
    }
    case SELECTORS.allowance: {
      const owner = readAddress(data, 0);
      const spender = readAddress(data, 1);
      if (owner === undefined || spender === undefined) return revert(costs.revert, "invalid arguments");
      return success(costs.balanceOf, uintWord(storage.allowances.get(`${owner}:${spender}`) ?? 0n));
    }
    case SELECTORS.transfer: {
      const to = readAddress(data, 0);
      const amount = readUint(data, 1);
      if (to === undefined || amount === undefined) return revert(costs.revert, "invalid arguments");
      const moved = moveBalance(storage, caller, to, amount);
      if (!moved.ok) return revert(costs.revert, "transfer amount exceeds balance");
      const returned = token.transferReturnsFalse ? FALSE_WORD : TRUE_WORD;
      return success(costs.transfer + (moved.newHolder ? costs.newHolderExtra : 0), returned, [transferLog(token, caller, to, amount)]);
    }
    case SELECTORS.approve: {
      const spender = readAddress(data, 0);
      const amount = readUint(data, 1);
      if (spender === undefined || amount === undefined) return revert(costs.revert, "invalid arguments");
      storage.allowances.set(`${caller}:${spender}`, amount);
      const log: EvmLog = {
        address: toEvmAddress(Buffer.from(token.hex, "hex")),
        topics: [APPROVAL_TOPIC, addressWord(caller), addressWord(spender)],
        data: uintWord(amount),
      };
      return success(costs.approve, TRUE_WORD, [log]);
    }
    case SELECTORS.transferFrom: {
      const from = readAddress(data, 0);
      const to = readAddress(data, 1);
      const amount = readUint(data, 2);
      if (from === undefined || to === undefined || amount === undefined) return revert(costs.revert, "invalid arguments");
      const allowanceKey = `${from}:${caller}`;
      const allowance = storage.allowances.get(allowanceKey) ?? 0n;
      if (allowance < amount) return revert(costs.revert, "transfer amount exceeds allowance");
      const moved = moveBalance(storage, from, to, amount);
      if (!moved.ok) return revert(costs.revert, "transfer amount exceeds balance");
      if (allowance !== UINT256_MAX) storage.allowances.set(allowanceKey, allowance - amount);
      const energy = costs.transfer + costs.transferFromExtra + (moved.newHolder ? costs.newHolderExtra : 0);
      return success(energy, TRUE_WORD, [transferLog(token, from, to, amount)]);
    }
    default:
      // No fallback function: Solidity reverts with empty data.
      return revert(costs.revert);
  }
}
