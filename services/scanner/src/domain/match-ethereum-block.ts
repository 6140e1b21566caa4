/**
 * Ethereum: native value transfers (`from`/`to` of transactions with value > 0, lower-cased), with
 * the receipt's status: a failed transaction is reported as "FAILED", not as money received.
 * Beyond the spec: ether that contracts move inside a successful transaction (internal transfers,
 * from the block's call traces when the scanner traces), and for webhooks that opted in: Transfer
 * logs of the operator's ERC-20 whitelist, and failed `transfer(…)` calls to those contracts (a
 * failed call leaves no log); with `all_tokens`, Transfer logs of every other ERC-20 contract too
 * (its contract address as `currency`, its `decimals()` as read once: see token-decimals.ts).
 */
import { collectMatches } from "./collect-matches.ts";
import { BUILT_IN_CHAINS, type ChainEntry } from "@chaingate/chain-registry";
import type { Coin } from "@chaingate/contracts";
import { decodeTransferCall, ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";
import { FAILED, SUCCESS, type WhitelistedToken } from "./currencies.ts";
import { formatUnits, hexToBaseUnits } from "@chaingate/decimal-amount";
import type { InternalValueFrame } from "./ethereum-call-frames.ts";
import type { BlockHeader, Match } from "./transfer.ts";
import type { WatchIndex } from "./watch-index.ts";

/** `eth_getBlockByNumber(n, true)` with each transaction's receipt (status and logs). */
export interface EthereumBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: EthereumTransaction[];
}

export interface EthereumTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  input: string;
  /** From the receipt: "0x1" success, "0x0" failed (pre-Byzantium receipts have none: success). */
  status?: string | undefined;
  logs?: EthereumLog[] | undefined;
  /** From the block's call traces: ether moved by contracts inside it; undefined when not traced. */
  internalTransfers?: InternalValueFrame[] | undefined;
}

export interface EthereumLog {
  address: string;
  topics: string[];
  data: string;
}

export function ethereumBlockHeader(block: EthereumBlock): BlockHeader {
  const height = Number(block.number);
  return {
    height,
    hash: block.hash,
    parentHash: height === 0 ? null : block.parentHash,
    timeMs: Number(block.timestamp) * 1000,
    txCount: block.transactions.length,
  };
}

/** Tokens by lower-case contract address. */
export type EthereumTokens = ReadonlyMap<string, WhitelistedToken>;

/** The EVM chain a block is of (the registry's entry): its coin, and its native currency. */
export type EvmChainEntry = Pick<ChainEntry<Coin>, "coin" | "native">;

/**
 * `decimals()` of unlisted ERC-20 contracts, as read once (null: the contract has none, amounts in
 * raw units; undefined: not read yet, which `prepare` rules out for every contract a block matches).
 */
export interface UnlistedTokenDecimals {
  decimalsOf(contract: string): number | null | undefined;
}

/** A Transfer event with both sides indexed: three topics (an ERC-721 Transfer has four). */
function isTransferLog(log: EthereumLog): boolean {
  return log.topics.length === 3 && log.topics[0]!.slice(2).toLowerCase() === ERC20_TRANSFER_TOPIC;
}

/** An ERC-20 Transfer log of any contract: a Transfer with one 32-byte amount. */
export function isErc20TransferLog(log: EthereumLog): boolean {
  return isTransferLog(log) && log.data.length === 66;
}

/** The sending and receiving addresses of a Transfer log, lower case. */
export function transferLogSides(log: EthereumLog): { from: string; to: string } {
  return { from: `0x${log.topics[1]!.slice(-40).toLowerCase()}`, to: `0x${log.topics[2]!.slice(-40).toLowerCase()}` };
}

export function matchEthereumBlock(
  block: EthereumBlock,
  index: WatchIndex,
  tokens: EthereumTokens,
  chain: EvmChainEntry = BUILT_IN_CHAINS.ETH,
  unlisted?: UnlistedTokenDecimals,
): Match[] {
  const matches: Match[] = [];
  const { coin, native } = chain;
  if (!index.watchesAny(coin)) return matches;
  // Every Transfer log is looked at only while a webhook of the chain wants all tokens.
  const anyToken = unlisted !== undefined && index.wantsAllTokens(coin) ? unlisted : undefined;
  for (const tx of block.transactions) {
    const from = tx.from.toLowerCase();
    const to = tx.to?.toLowerCase() ?? null;
    const status = tx.status === undefined || Number(tx.status) === 1 ? SUCCESS : FAILED;
    if (to !== null && BigInt(tx.value) > 0n) {
      collectMatches(
        index,
        { coin, toKey: to, fromKey: from },
        () => {
          const rawAmount = hexToBaseUnits(tx.value);
          return {
            coin,
            currency: native.symbol,
            from,
            to,
            amount: formatUnits(rawAmount, native.decimals),
            rawAmount,
            decimals: native.decimals,
            tokenContract: null,
            txid: tx.hash,
            position: null,
            executionStatus: status,
          };
        },
        matches,
      );
    }
    // A failed transaction moved nothing inside it either: its frames' value went back.
    const frames = tx.internalTransfers;
    if (status === SUCCESS && frames !== undefined) {
      // A block carries about a thousand frames and nearly none is watched: those cost a lookup or
      // two and no allocation. Consecutive frames mostly share their sender: it is looked up once.
      let sender: string | undefined;
      let senderWatched = false;
      for (const frame of frames) {
        if (frame.from !== sender) {
          sender = frame.from;
          senderWatched = index.watchers(coin, sender) !== undefined;
        }
        if (senderWatched || index.watchers(coin, frame.to) !== undefined) matchInternalTransfer(chain, tx.hash, frame, index, matches);
      }
    }
    const token = to === null ? undefined : tokens.get(to);
    const failedCall = token && status === FAILED ? decodeTransferCall(tx.input) : undefined;
    if (token && failedCall) {
      const recipient = `0x${failedCall.recipient}`;
      collectMatches(
        index,
        { coin, toKey: recipient, fromKey: from, optInOnly: "tokens" },
        () => {
          const rawAmount = hexToBaseUnits(failedCall.amountHex);
          return {
            coin,
            currency: token.symbol,
            from,
            to: recipient,
            amount: formatUnits(rawAmount, token.decimals),
            rawAmount,
            decimals: token.decimals,
            tokenContract: token.displayContract,
            txid: tx.hash,
            position: null,
            executionStatus: FAILED,
          };
        },
        matches,
      );
    }
    // A log's position is its index within the transaction, not the block's logIndex: the same
    // transfer mined again in another block keeps its identity (and continues its generations).
    for (const [logPosition, log] of (tx.logs ?? []).entries()) {
      const contract = log.address.toLowerCase();
      const logToken = tokens.get(contract);
      // Most logs are of no listed token: only while a webhook wants all tokens is each one's topic read.
      if ((!logToken && !anyToken) || !isTransferLog(log)) continue;
      if (logToken) {
        const listed = { currency: logToken.symbol, decimals: logToken.decimals, tokenContract: logToken.displayContract };
        matchTransferLog(coin, tx.hash, logPosition, log, "tokens", () => listed, index, matches);
      } else if (anyToken && isErc20TransferLog(log)) {
        matchTransferLog(coin, tx.hash, logPosition, log, "anyToken", () => unlistedToken(coin, contract, anyToken), index, matches);
      }
    }
  }
  return matches;
}

function matchInternalTransfer(
  { coin, native }: EvmChainEntry,
  txid: string,
  frame: InternalValueFrame,
  index: WatchIndex,
  into: Match[],
): void {
  collectMatches(
    index,
    { coin, toKey: frame.to, fromKey: frame.from },
    () => {
      const rawAmount = hexToBaseUnits(frame.value);
      return {
        coin,
        currency: native.symbol,
        from: frame.from,
        to: frame.to,
        amount: formatUnits(rawAmount, native.decimals),
        rawAmount,
        decimals: native.decimals,
        tokenContract: null,
        txid,
        position: frame.index,
        executionStatus: SUCCESS,
        internal: { traceAddress: frame.traceAddress },
      };
    },
    into,
  );
}

/** What a token transfer reports of its token: its name in `currency`, its scale and contract. */
interface LogToken {
  currency: string;
  decimals: number;
  tokenContract: string;
}

/** A Transfer log (listed token, or an unlisted one for webhooks with all_tokens) matched on both its sides. */
function matchTransferLog(
  coin: Coin,
  txid: string,
  position: number,
  log: EthereumLog,
  optInOnly: "tokens" | "anyToken",
  token: () => LogToken,
  index: WatchIndex,
  into: Match[],
): void {
  const { from, to } = transferLogSides(log);
  collectMatches(
    index,
    { coin, toKey: to, fromKey: from, optInOnly },
    () => {
      const { currency, decimals, tokenContract } = token();
      const rawAmount = hexToBaseUnits(log.data);
      return {
        coin,
        currency,
        from,
        to,
        amount: formatUnits(rawAmount, decimals),
        rawAmount,
        decimals,
        tokenContract,
        txid,
        position,
        executionStatus: SUCCESS,
      };
    },
    into,
  );
}

/** A contract off the chain's token list, as its decimals were read (see token-decimals.ts). */
function unlistedToken(coin: Coin, contract: string, unlisted: UnlistedTokenDecimals): LogToken {
  const decimals = unlisted.decimalsOf(contract);
  // Never reported with a guessed scale: the block waits until the contract was read.
  if (decimals === undefined) throw new Error(`${coin}: decimals of ${contract} not read before matching`);
  // The contract, never a symbol: anyone can deploy a token that calls itself USDT.
  return { currency: contract, decimals: decimals ?? 0, tokenContract: contract };
}
