/**
 * `decimals()` of the unlisted ERC-20 contracts whose Transfer logs pay watched addresses of
 * webhooks with `all_tokens` (issue #31): read from the chain's node once per contract, stored in
 * `token_decimals` (the first replica to store a contract's answer decides it for all, so every
 * replay of a block reports the same amounts) and kept in memory. A contract without `decimals()`
 * (the call reverts or answers nothing usable) is stored as null: its amounts are raw units. A node
 * that cannot answer (down, timing out) leaves the contract unread: the block waits and is tried again.
 */
import type { Coin } from "@chaingate/contracts";
import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import type { Kysely } from "kysely";
import {
  isErc20TransferLog,
  transferLogSides,
  type EthereumBlock,
  type EthereumTokens,
  type UnlistedTokenDecimals,
} from "../domain/match-ethereum-block.ts";
import type { WatchIndex } from "../domain/watch-index.ts";
import type { ScannerDatabase } from "./database-schema.ts";

/** `decimals()`'s selector. */
const DECIMALS_CALL = "0x313ce567";
/** The most decimals taken as such (ERC-20 says uint8); a larger answer is not a scale. */
const MAX_DECIMALS = 77;
/** Contracts kept in memory; past it the oldest are read again from the table. */
const CACHE_LIMIT = 100_000;
/** JSON-RPC "execution reverted" (geth, anvil, erigon, reth, nethermind). */
const EXECUTION_REVERTED = 3;
/**
 * What the EVM said of a call that ran and failed, in the words of geth, erigon, reth, nethermind
 * and anvil (`EVM error ReentrancySentryOOG`, `OutOfGas`, `execution reverted`, `invalid opcode`,
 * nethermind's `VM execution error`): the same call fails the same way. Any other refusal is the
 * node's trouble (`execution aborted (timeout = 5s)`, a provider's limit): the block waits.
 */
const EVM_FAILURE = /revert|gas|\boog|oog\b|opcode|invalid jump|stack (underflow|overflow)|evm error|vm execution error/i;
/**
 * Gas given to `decimals()` (a constant costs under 3,000): a contract that loops or burns gas there
 * fails at once, so a spam token can never hold a block back.
 */
const DECIMALS_GAS = "0x186a0";

export interface TokenDecimals extends UnlistedTokenDecimals {
  /** Reads the decimals of every unlisted contract of `block` that pays (or is paid by) a key `index` watches. */
  prepare(block: EthereumBlock, index: WatchIndex): Promise<void>;
}

export function createTokenDecimals(options: {
  coin: Coin;
  db: Kysely<ScannerDatabase>;
  node: NodeClient;
  /** The chain's token list: its contracts are never read. */
  listed: EthereumTokens;
}): TokenDecimals {
  const { coin, db, node, listed } = options;
  const known = new Map<string, number | null>();
  const remember = (contract: string, decimals: number | null) => {
    if (known.size >= CACHE_LIMIT) known.delete(known.keys().next().value!);
    known.set(contract, decimals);
  };
  return {
    decimalsOf: (contract) => known.get(contract),
    async prepare(block, index) {
      if (!index.wantsAllTokens(coin)) return;
      const wanted = new Set<string>();
      for (const tx of block.transactions) {
        for (const log of tx.logs ?? []) {
          const contract = log.address.toLowerCase();
          if (listed.has(contract) || known.has(contract) || wanted.has(contract) || !isErc20TransferLog(log)) continue;
          const { from, to } = transferLogSides(log);
          if (index.watchers(coin, to) !== undefined || index.watchers(coin, from) !== undefined) wanted.add(contract);
        }
      }
      if (!wanted.size) return;
      const stored = await db
        .selectFrom("token_decimals")
        .select(["contract", "decimals"])
        .where("coin", "=", coin)
        .where("contract", "in", [...wanted])
        .execute();
      for (const row of stored) remember(row.contract, row.decimals);
      const unread = [...wanted].filter((contract) => !known.has(contract));
      if (!unread.length) return;
      const read = await Promise.all(unread.map(async (contract) => ({ coin, contract, decimals: await readDecimals(node, contract) })));
      await db
        .insertInto("token_decimals")
        .values(read)
        .onConflict((conflict) => conflict.columns(["coin", "contract"]).doNothing())
        .execute();
      // What the table holds now: another replica's answer, stored first, wins.
      const decided = await db
        .selectFrom("token_decimals")
        .select(["contract", "decimals"])
        .where("coin", "=", coin)
        .where("contract", "in", unread)
        .execute();
      for (const row of decided) remember(row.contract, row.decimals);
    },
  };
}

/** The contract's `decimals()` at the node's tip; null when it has none. Throws when the node cannot answer. */
async function readDecimals(node: NodeClient, contract: string): Promise<number | null> {
  let answer: string;
  try {
    answer = await node.call<string>("eth_call", [{ to: contract, data: DECIMALS_CALL, gas: DECIMALS_GAS }, "latest"]);
  } catch (error) {
    if (error instanceof NodeRpcError && (error.rpcCode === EXECUTION_REVERTED || EVM_FAILURE.test(error.rpcMessage))) return null;
    throw error;
  }
  if (typeof answer !== "string" || !/^0x[0-9a-fA-F]{64}/.test(answer)) return null;
  const value = BigInt(answer.slice(0, 66));
  return value <= BigInt(MAX_DECIMALS) ? Number(value) : null;
}
