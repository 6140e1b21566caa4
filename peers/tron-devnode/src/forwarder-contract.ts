/**
 * A native "forwarder" contract (no bytecode is executed): it passes on the TRX and TRC-10 tokens it is called
 * with, so a contract call yields `internal_transactions` in java-tron's shape (`Program.callToAddress`,
 * `TransactionUtil.buildInternalTransaction`). It behaves like this Solidity (Tron dialect):
 *
 * ```solidity
 * contract Forwarder {
 *   // transfer/transferToken: a failed transfer reverts the whole call.
 *   function forward(address payable to) external payable {
 *     to.transfer(msg.value);
 *     if (msg.tokenvalue > 0) to.transferToken(msg.tokenvalue, msg.tokenid);
 *   }
 *   // Low-level calls: a failed transfer is only recorded (rejected) and its value stays here.
 *   function tryForward(address payable to) external payable returns (bool allSent);
 *   // forward, then a failing require: the transaction fails (REVERT) after its internal transfers.
 *   function forwardAndRevert(address payable to) external payable;
 * }
 * ```
 *
 * Each transfer is one CALL, hence one internal transaction, even with no value (`callValueInfo: [{}]`). A TRX
 * transfer's entry is `[{"callValue":N}]`; a TRC-10 one's is `[{}, {"callValue":N,"tokenId":"<id>"}]` (java-tron
 * always prints the TRX element first, 0 for a token transfer). A transfer to a contract fails: none of the
 * devnode's contracts has a payable fallback, so the callee reverts and java-tron marks the entry rejected. When the
 * call as a whole fails (REVERT, OUT_OF_ENERGY) nothing moves and every entry is marked rejected, as VMActuator's
 * `rejectInternalTransactions` does. These are the simplest java-tron-shaped ways to get a rejected entry inside a
 * successful transaction (`tryForward` to a contract) and a failed transaction with entries (`forwardAndRevert`, or
 * too low a fee_limit).
 */
import { keccak_256 } from "@noble/hashes/sha3";
import { fromEvmAddress } from "./address.ts";
import { concatBytes, toHex } from "./hex.ts";
import type { LedgerState } from "./ledger-state.ts";
import { revertData } from "./trc20-token.ts";

/** Energy of the function dispatch and argument decoding (approximate, like all the devnode's energy figures). */
export const FORWARDER_DISPATCH_ENERGY = 300;
/** A CALL's base energy. */
export const CALL_ENERGY = 700;
/** Added to a CALL that moves value (TRX or a TRC-10). */
export const VALUE_TRANSFER_ENERGY = 9_000;
/** Added to a CALL that moves value to an address without an account (the TVM creates it). */
export const NEW_ACCOUNT_ENERGY = 25_000;
/** The text `forwardAndRevert` reverts with (`Error(string)`). */
export const FORWARD_AND_REVERT_MESSAGE = "forwardAndRevert: reverted after forwarding";

const WORD = 32;
const NOTE = "call";

function selector(signature: string): string {
  return toHex(keccak_256(signature).subarray(0, 4));
}

/** The forwarder's functions by selector. */
export const FORWARDER_SELECTORS = {
  forward: selector("forward(address)"),
  tryForward: selector("tryForward(address)"),
  forwardAndRevert: selector("forwardAndRevert(address)"),
} as const;

/** The forwarder's ABI in java-tron's enum spelling (`getcontract`). */
export const FORWARDER_ABI = {
  entrys: [
    { inputs: [{ name: "to", type: "address" }], name: "forward", payable: true, stateMutability: "Payable", type: "Function" },
    {
      inputs: [{ name: "to", type: "address" }],
      name: "tryForward",
      outputs: [{ name: "allSent", type: "bool" }],
      payable: true,
      stateMutability: "Payable",
      type: "Function",
    },
    { inputs: [{ name: "to", type: "address" }], name: "forwardAndRevert", payable: true, stateMutability: "Payable", type: "Function" },
  ],
};

/** java-tron's `InternalTransaction` (Tron.proto) as `TransactionInfo.internal_transactions` carries it. */
export interface InternalTransaction {
  /** 32 bytes: java-tron's `InternalTransaction.getHash`. */
  hash: Uint8Array;
  /** 21 bytes: the contract that made the call. */
  callerAddress: Uint8Array;
  /** 21 bytes: the callee. */
  transferToAddress: Uint8Array;
  /** TRX sent, in sun (0 for a TRC-10 transfer). */
  callValue: number;
  /** The TRC-10 token sent, if any. */
  token?: { id: string; amount: number };
  /** "call" (java-tron also has "create" and "suicide"). */
  note: string;
  rejected: boolean;
}

/** One call of the forwarder; the call value and tokens are already in its account (VMActuator moves them first). */
export interface ForwarderCall {
  /** The forwarder's address, 21-byte hex. */
  contractHex: string;
  data: Uint8Array;
  callValue: number;
  tokenId: number;
  tokenValue: number;
  /** The transaction's id: the parent hash of its internal transactions. */
  txId: Uint8Array;
  energyLimit: number;
  /** Block time, for accounts the transfers create. */
  now: number;
}

/** The outcome of a forwarder call; on failure the caller discards the state it ran on. */
export interface ForwarderExecution {
  status: "SUCCESS" | "REVERT" | "OUT_OF_ENERGY";
  /** The whole limit on OUT_OF_ENERGY (java-tron's `spendAllEnergy`). */
  energyUsed: number;
  returnData: Uint8Array;
  internalTransactions: InternalTransaction[];
  /** Plain-text `resMessage` of a failure. */
  resMessage?: string;
}

/**
 * java-tron's `InternalTransaction.getHash`: keccak256 of the parent hash (here the transaction id), the receiver,
 * the call data (empty for a plain transfer), the TRX value and the program's nonce, each int64 big-endian.
 */
function internalTransactionHash(txId: Uint8Array, to: Uint8Array, value: number, nonce: number): Uint8Array {
  const int64 = (number: number) => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigInt64(0, BigInt(number));
    return bytes;
  };
  return keccak_256(concatBytes(txId, to, int64(value), int64(nonce)));
}

/** The `address` argument as 21-byte hex; undefined when missing or with dirty high bytes (ABI v2 reverts). */
function readAddressArgument(data: Uint8Array): string | undefined {
  const word = data.length >= 4 + WORD ? data.subarray(4, 4 + WORD) : undefined;
  if (!word || word.subarray(0, WORD - 20).some((byte) => byte !== 0)) return undefined;
  return toHex(fromEvmAddress(word.subarray(WORD - 20)));
}

/** Runs a forwarder call on `state` (a scratch copy: it is changed even when the call fails). */
export function executeForwarder(state: LedgerState, call: ForwarderCall): ForwarderExecution {
  const entries: InternalTransaction[] = [];
  let used = 0;
  const fail = (status: "REVERT" | "OUT_OF_ENERGY", returnData: Uint8Array, resMessage: string): ForwarderExecution => {
    for (const entry of entries) entry.rejected = true;
    return {
      status,
      energyUsed: status === "OUT_OF_ENERGY" ? call.energyLimit : used,
      returnData,
      internalTransactions: entries,
      resMessage,
    };
  };
  // java-tron charges an opcode's energy before running it: a CALL that does not fit makes no internal transaction.
  const spend = (op: string, energy: number): ForwarderExecution | undefined => {
    if (used + energy <= call.energyLimit) {
      used += energy;
      return undefined;
    }
    const message = `Not enough energy for '${op}' operation executing: curInvokeEnergyLimit[${call.energyLimit}], curOpEnergy[${energy}], usedEnergy[${used}]`;
    return fail("OUT_OF_ENERGY", new Uint8Array(), message);
  };
  const revert = (returnData: Uint8Array = new Uint8Array()) => fail("REVERT", returnData, "REVERT opcode executed");

  const outOfEnergy = spend("CALLDATALOAD", FORWARDER_DISPATCH_ENERGY);
  if (outOfEnergy) return outOfEnergy;
  const functionSelector = toHex(call.data.subarray(0, 4));
  const name = (Object.keys(FORWARDER_SELECTORS) as Array<keyof typeof FORWARDER_SELECTORS>).find(
    (key) => FORWARDER_SELECTORS[key] === functionSelector,
  );
  const to = readAddressArgument(call.data);
  // No fallback function, and bad arguments: Solidity reverts with empty data.
  if (name === undefined || to === undefined) return revert();
  const contract = state.accounts.get(call.contractHex);
  if (!contract) throw new Error(`forwarder ${call.contractHex} has no account`);

  /** One CALL from the forwarder to `to`: "sent", "failed" (the callee reverted) or an OUT_OF_ENERGY outcome. */
  const transfer = (amount: number, tokenId?: string): "sent" | "failed" | ForwarderExecution => {
    const target = state.accounts.get(to);
    const energy = CALL_ENERGY + (amount > 0 ? VALUE_TRANSFER_ENERGY + (target ? 0 : NEW_ACCOUNT_ENERGY) : 0);
    const outOfEnergy = spend("CALL", energy);
    if (outOfEnergy) return outOfEnergy;
    const toBytes = Buffer.from(to, "hex");
    const trxValue = tokenId === undefined ? amount : 0;
    entries.push({
      hash: internalTransactionHash(call.txId, toBytes, trxValue, entries.length + 1),
      callerAddress: Buffer.from(call.contractHex, "hex"),
      transferToAddress: toBytes,
      callValue: trxValue,
      ...(tokenId === undefined ? {} : { token: { id: tokenId, amount } }),
      note: NOTE,
      rejected: false,
    });
    if (target?.type === "Contract") {
      (entries[entries.length - 1] as InternalTransaction).rejected = true;
      return "failed";
    }
    if (amount === 0) return "sent";
    const receiver = target ?? state.createAccount(to, call.now);
    if (tokenId === undefined) {
      contract.balance -= amount;
      receiver.balance += amount;
    } else {
      contract.assets.set(tokenId, (contract.assets.get(tokenId) ?? 0) - amount);
      receiver.assets.set(tokenId, (receiver.assets.get(tokenId) ?? 0) + amount);
    }
    return "sent";
  };

  const transfers: Array<[amount: number, tokenId?: string]> = [[call.callValue]];
  if (call.tokenValue > 0) transfers.push([call.tokenValue, String(call.tokenId)]);
  let allSent = true;
  for (const [amount, tokenId] of transfers) {
    const outcome = transfer(amount, tokenId);
    if (typeof outcome === "object") return outcome;
    if (outcome === "failed" && name !== "tryForward") return revert();
    allSent &&= outcome === "sent";
  }
  if (name === "forwardAndRevert") return revert(revertData(FORWARD_AND_REVERT_MESSAGE));
  const returnData = name === "tryForward" ? concatBytes(new Uint8Array(WORD - 1), Uint8Array.of(allSent ? 1 : 0)) : new Uint8Array();
  return { status: "SUCCESS", energyUsed: used, returnData, internalTransactions: entries };
}
