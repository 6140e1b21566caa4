/**
 * The `/jsonrpc` Ethereum-compatible subset java-tron serves (read-only: blocks, transactions, receipts,
 * balances, eth_call, logs). Methods java-tron refuses answer -32601 with java-tron's message.
 */
import { keccak_256 } from "@noble/hashes/sha3";
import { parseAnyAddress, toEvmAddress } from "./address.ts";
import { ENERGY_FEE_SUN } from "./chain-parameters.ts";
import { parseHex, toHex } from "./hex.ts";
import { BLOCK_VERSION } from "./ledger.ts";
import type { ExecutedTransaction, Ledger, StoredBlock } from "./ledger.ts";
import { devnodeRuntimeCode } from "./print-chain-json.ts";
import { NODE_CODE_VERSION } from "./wallet-api.ts";

/** Handles one HTTP body (a request or a batch) and returns the JSON answer. */
export type JsonRpcHandler = (body: string) => unknown;

/** Methods java-tron declares but refuses with -32601 (TronJsonRpcImpl). */
export const REFUSED_METHODS = [
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "eth_sign",
  "eth_signTransaction",
  "eth_getTransactionCount",
  "parity_nextNonce",
  "eth_getCompilers",
  "eth_compileSolidity",
  "eth_compileLLL",
  "eth_compileSerpent",
  "eth_submitWork",
  "eth_submitHashrate",
] as const;

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const EXECUTION_ERROR = -32000;
const ZERO_HASH = "0x" + "00".repeat(32);
const EMPTY_BLOOM = "0x" + "00".repeat(256);
/** Gas limit reported for blocks (java-tron reports the block's energy limit; the devnode has no limit). */
const BLOCK_GAS_LIMIT = 0;
/** java-tron's default `node.jsonrpc.maxBlockRange` for eth_getLogs. */
export const DEFAULT_MAX_BLOCK_RANGE = 5_000;
/** TronJsonRpcImpl's messages. */
const TAG_PENDING_SUPPORT_ERROR = "TAG pending not supported";
const TAG_NOT_SUPPORT_ERROR = "TAG [earliest | pending | finalized] not supported";
const QUANTITY_NOT_SUPPORT_ERROR = "QUANTITY not supported, just support TAG as latest";
const BLOCK_NUM_ERROR = "invalid block number";

/** Options of {@link createJsonRpc}. */
export interface JsonRpcOptions {
  /** eth_getLogs' largest block range (java-tron's `node.jsonrpc.maxBlockRange`); 0 or less = no limit. */
  maxBlockRange?: number;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function quantity(value: number | bigint): string {
  return "0x" + value.toString(16);
}

function evmAddress(hex21: string): string {
  return "0x" + hex21.slice(2);
}

function ownerOf(entry: ExecutedTransaction): string {
  return toHex(entry.transaction.raw.contract[0]?.value.owner_address ?? new Uint8Array(21));
}

function recipientOf(entry: ExecutedTransaction): string | null {
  const contract = entry.transaction.raw.contract[0];
  if (!contract) return null;
  return evmAddress(toHex(contract.type === "TriggerSmartContract" ? contract.value.contract_address : contract.value.to_address));
}

/** Creates the JSON-RPC handler over a ledger. */
export function createJsonRpc(ledger: Ledger, options: JsonRpcOptions = {}): JsonRpcHandler {
  const chainId = "0x" + toHex((ledger.blockByNumber(0) as StoredBlock).id.subarray(28));
  const maxBlockRange = options.maxBlockRange ?? DEFAULT_MAX_BLOCK_RANGE;

  /** JsonRpcApiUtil.getByJsonBlockId: -1 for latest (or absent), the solid block for finalized; `pending` is refused. */
  const blockNumberFromTag = (tag: unknown): number => {
    const text = typeof tag === "string" ? tag.toLowerCase() : tag;
    if (text === "pending") throw new RpcError(INVALID_PARAMS, TAG_PENDING_SUPPORT_ERROR);
    if (text === undefined || text === null || text === "" || text === "latest") return -1;
    if (text === "earliest") return 0;
    if (text === "finalized") return ledger.solid.raw.number;
    if (typeof text === "string" && /^0x[0-9a-f]+$/.test(text)) return Number.parseInt(text, 16);
    throw new RpcError(INVALID_PARAMS, BLOCK_NUM_ERROR);
  };

  const blockFromTag = (tag: unknown): StoredBlock | undefined => {
    const number = blockNumberFromTag(tag);
    return number === -1 ? ledger.head : ledger.blockByNumber(number);
  };

  /** TronJsonRpcImpl.getTrxBalance and friends: only `latest` (or nothing). */
  const requireLatest = (tag: unknown): void => {
    if (tag === undefined || (typeof tag === "string" && tag.toLowerCase() === "latest")) return;
    if (typeof tag === "string" && ["earliest", "pending", "finalized"].includes(tag.toLowerCase()))
      throw new RpcError(INVALID_PARAMS, TAG_NOT_SUPPORT_ERROR);
    if (typeof tag === "string" && /^0x[0-9a-fA-F]+$/.test(tag)) throw new RpcError(INVALID_PARAMS, QUANTITY_NOT_SUPPORT_ERROR);
    throw new RpcError(INVALID_PARAMS, BLOCK_NUM_ERROR);
  };

  /** LogFilterWrapper: the block range of an eth_getLogs filter, with java-tron's checks and messages. */
  const logRange = (filter: Record<string, unknown>): { from: number; to: number } => {
    const head = ledger.head.raw.number;
    const given = (value: unknown): boolean => value !== undefined && value !== null && value !== "";
    if (given(filter.blockHash)) {
      if (given(filter.fromBlock) || given(filter.toBlock)) {
        throw new RpcError(INVALID_PARAMS, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
      }
      const block = typeof filter.blockHash === "string" ? ledger.blockById(filter.blockHash.replace(/^0x/, "")) : undefined;
      if (!block) throw new RpcError(INVALID_PARAMS, "invalid blockHash");
      return { from: block.raw.number, to: block.raw.number };
    }
    let from = given(filter.fromBlock) ? blockNumberFromTag(filter.fromBlock) : -1;
    let to = given(filter.toBlock) ? blockNumberFromTag(filter.toBlock) : -1;
    if (to === -1) to = Number.MAX_SAFE_INTEGER;
    if (from === -1) from = given(filter.fromBlock) || !given(filter.toBlock) ? head : Math.min(to, head);
    if (given(filter.fromBlock) && given(filter.toBlock) && from > to)
      throw new RpcError(INVALID_PARAMS, "please verify: fromBlock <= toBlock");
    if (maxBlockRange > 0 && Math.min(to, head) - from > maxBlockRange)
      throw new RpcError(INVALID_PARAMS, `exceed max block range: ${maxBlockRange}`);
    return { from, to: Math.min(to, head) };
  };

  const parseAddressParam = (value: unknown): string => {
    if (typeof value === "string") {
      const bytes = parseHex(value);
      if (bytes?.length === 20) return "41" + toHex(bytes);
      const tron = parseAnyAddress(value.replace(/^0x/, ""));
      if (tron && !value.startsWith("T")) return toHex(tron);
    }
    throw new RpcError(INVALID_PARAMS, "invalid address hash value");
  };

  const transactionObject = (entry: ExecutedTransaction, block: StoredBlock, index: number): Record<string, unknown> => {
    const contract = entry.transaction.raw.contract[0];
    const signature = entry.transaction.signatures[0] ?? new Uint8Array(65);
    return {
      blockHash: "0x" + block.idHex,
      blockNumber: quantity(block.raw.number),
      from: evmAddress(ownerOf(entry)),
      gas: quantity(entry.energyUsageTotal),
      gasPrice: quantity(ENERGY_FEE_SUN),
      hash: "0x" + entry.id,
      input: contract?.type === "TriggerSmartContract" ? "0x" + toHex(contract.value.data) : "0x",
      nonce: "0x0000000000000000",
      to: recipientOf(entry),
      transactionIndex: quantity(index),
      type: "0x0",
      value: quantity(
        contract?.type === "TransferContract"
          ? contract.value.amount
          : contract?.type === "TriggerSmartContract"
            ? contract.value.call_value
            : 0,
      ),
      v: quantity(signature[64] ?? 0),
      r: "0x" + toHex(signature.subarray(0, 32)),
      s: "0x" + toHex(signature.subarray(32, 64)),
    };
  };

  const logObjects = (entry: ExecutedTransaction, block: StoredBlock, index: number, firstLogIndex: number): Record<string, unknown>[] =>
    entry.logs.map((log, logIndex) => ({
      address: "0x" + toHex(log.address),
      blockHash: "0x" + block.idHex,
      blockNumber: quantity(block.raw.number),
      data: "0x" + toHex(log.data),
      logIndex: quantity(firstLogIndex + logIndex),
      removed: false,
      topics: log.topics.map((topic) => "0x" + toHex(topic)),
      transactionHash: "0x" + entry.id,
      transactionIndex: quantity(index),
    }));

  const blockObject = (block: StoredBlock, full: boolean): Record<string, unknown> => ({
    baseFeePerGas: "0x0",
    difficulty: "0x0",
    extraData: "0x",
    gasLimit: quantity(BLOCK_GAS_LIMIT),
    gasUsed: quantity(block.transactions.reduce((sum, entry) => sum + entry.energyUsageTotal, 0)),
    hash: "0x" + block.idHex,
    logsBloom: EMPTY_BLOOM,
    miner: evmAddress(toHex(block.raw.witnessAddress)),
    mixHash: ZERO_HASH,
    nonce: "0x0000000000000000",
    number: quantity(block.raw.number),
    parentHash: "0x" + toHex(block.raw.parentHash),
    receiptsRoot: ZERO_HASH,
    sha3Uncles: ZERO_HASH,
    size: quantity(0),
    stateRoot: ZERO_HASH,
    timestamp: quantity(Math.floor(block.raw.timestamp / 1000)),
    totalDifficulty: "0x0",
    transactions: block.transactions.map((entry, index) => (full ? transactionObject(entry, block, index) : "0x" + entry.id)),
    transactionsRoot: "0x" + toHex(block.raw.txTrieRoot),
    uncles: [],
  });

  const locate = (hash: unknown): { entry: ExecutedTransaction; block: StoredBlock; index: number } | undefined => {
    if (typeof hash !== "string") throw new RpcError(INVALID_PARAMS, "invalid hash value");
    const entry = ledger.executedTransaction(hash.replace(/^0x/, ""));
    const block = entry ? ledger.blockByNumber(entry.blockNumber) : undefined;
    if (!entry || !block) return undefined;
    return { entry, block, index: block.transactions.indexOf(entry) };
  };

  const call = (params: unknown[]): { data: Uint8Array; energy: number } => {
    const args = (params[0] ?? {}) as Record<string, unknown>;
    const from = args.from === undefined ? "41" + "00".repeat(20) : parseAddressParam(args.from);
    const to = parseAddressParam(args.to);
    const data =
      parseHex(typeof args.data === "string" ? args.data : typeof args.input === "string" ? args.input : "0x") ?? new Uint8Array();
    const result = ledger.callConstant({
      owner_address: Buffer.from(from, "hex"),
      contract_address: Buffer.from(to, "hex"),
      data,
      call_value: 0,
      call_token_value: 0,
      token_id: 0,
    });
    if (result.kind === "noContract") return { data: new Uint8Array(), energy: 0 };
    if (result.execution.status === "REVERT") throw new RpcError(EXECUTION_ERROR, "REVERT opcode executed");
    return { data: result.execution.returnData, energy: result.execution.energyUsed };
  };

  const methods: Record<string, (params: unknown[]) => unknown> = {
    web3_clientVersion: () => `TRON/v${NODE_CODE_VERSION}/tron-devnode`,
    web3_sha3: (params) => "0x" + toHex(keccak_256(parseHex(String(params[0] ?? "")) ?? new Uint8Array())),
    net_version: () => chainId,
    net_listening: () => true,
    net_peerCount: () => "0x0",
    eth_chainId: () => chainId,
    eth_protocolVersion: () => quantity(BLOCK_VERSION),
    eth_syncing: () => false,
    eth_blockNumber: () => quantity(ledger.head.raw.number),
    eth_gasPrice: () => quantity(ENERGY_FEE_SUN),
    eth_accounts: () => [],
    eth_coinbase: () => evmAddress(ledger.genesis.witness.hex),
    eth_mining: () => true,
    eth_hashrate: () => "0x0",
    eth_getBalance: (params) => {
      requireLatest(params[1]);
      return quantity(ledger.pendingView.accounts.get(parseAddressParam(params[0]))?.balance ?? 0);
    },
    eth_getCode: (params) => {
      requireLatest(params[1]);
      const contract = ledger.contract(parseAddressParam(params[0]));
      return contract ? "0x" + devnodeRuntimeCode(contract) : "0x";
    },
    eth_getStorageAt: (params) => {
      requireLatest(params[2]);
      parseAddressParam(params[0]);
      return ZERO_HASH;
    },
    eth_call: (params) => {
      requireLatest(params[1]);
      return "0x" + toHex(call(params).data);
    },
    eth_estimateGas: (params) => quantity(call(params).energy),
    eth_getBlockByNumber: (params) => {
      const block = blockFromTag(params[0]);
      return block ? blockObject(block, params[1] === true) : null;
    },
    eth_getBlockByHash: (params) => {
      const block = typeof params[0] === "string" ? ledger.blockById(params[0].replace(/^0x/, "")) : undefined;
      return block ? blockObject(block, params[1] === true) : null;
    },
    eth_getBlockTransactionCountByNumber: (params) => {
      const block = blockFromTag(params[0]);
      return block ? quantity(block.transactions.length) : null;
    },
    eth_getBlockTransactionCountByHash: (params) => {
      const block = typeof params[0] === "string" ? ledger.blockById(params[0].replace(/^0x/, "")) : undefined;
      return block ? quantity(block.transactions.length) : null;
    },
    eth_getTransactionByHash: (params) => {
      const found = locate(params[0]);
      return found ? transactionObject(found.entry, found.block, found.index) : null;
    },
    eth_getTransactionByBlockNumberAndIndex: (params) => {
      const block = blockFromTag(params[0]);
      const index = Number.parseInt(String(params[1] ?? ""), 16);
      const entry = block?.transactions[index];
      return block && entry ? transactionObject(entry, block, index) : null;
    },
    eth_getTransactionByBlockHashAndIndex: (params) => {
      const block = typeof params[0] === "string" ? ledger.blockById(params[0].replace(/^0x/, "")) : undefined;
      const index = Number.parseInt(String(params[1] ?? ""), 16);
      const entry = block?.transactions[index];
      return block && entry ? transactionObject(entry, block, index) : null;
    },
    eth_getTransactionReceipt: (params) => {
      const found = locate(params[0]);
      if (!found) return null;
      const { entry, block, index } = found;
      const previousLogs = block.transactions.slice(0, index).reduce((sum, other) => sum + other.logs.length, 0);
      const cumulative = block.transactions.slice(0, index + 1).reduce((sum, other) => sum + other.energyUsageTotal, 0);
      return {
        blockHash: "0x" + block.idHex,
        blockNumber: quantity(block.raw.number),
        contractAddress: null,
        cumulativeGasUsed: quantity(cumulative),
        effectiveGasPrice: quantity(ENERGY_FEE_SUN),
        from: evmAddress(ownerOf(entry)),
        gasUsed: quantity(entry.energyUsageTotal),
        logs: logObjects(entry, block, index, previousLogs),
        logsBloom: EMPTY_BLOOM,
        root: null,
        status: entry.transaction.contractRet === "SUCCESS" ? "0x1" : "0x0",
        to: recipientOf(entry),
        transactionHash: "0x" + entry.id,
        transactionIndex: quantity(index),
        type: "0x0",
      };
    },
    eth_getLogs: (params) => {
      const filter = (params[0] ?? {}) as Record<string, unknown>;
      const { from, to } = logRange(filter);
      const blocks: StoredBlock[] = [];
      for (let number = from; number <= to; number += 1) blocks.push(ledger.blockByNumber(number) as StoredBlock);
      const addresses = (Array.isArray(filter.address) ? filter.address : filter.address === undefined ? [] : [filter.address]).map(
        (value) => toHex(toEvmAddress(Buffer.from(parseAddressParam(value), "hex"))),
      );
      const topics = Array.isArray(filter.topics) ? filter.topics : [];
      const matchesTopics = (logTopics: unknown[]): boolean =>
        topics.every((wanted, position) => {
          if (wanted === null || wanted === undefined) return true;
          const options = (Array.isArray(wanted) ? wanted : [wanted]).map((topic) => String(topic).toLowerCase());
          return options.includes(String(logTopics[position] ?? ""));
        });
      const logs: Record<string, unknown>[] = [];
      for (const block of blocks) {
        let logIndex = 0;
        block.transactions.forEach((entry, index) => {
          for (const log of logObjects(entry, block, index, logIndex)) {
            const address = String(log.address).slice(2);
            if ((addresses.length === 0 || addresses.includes(address)) && matchesTopics(log.topics as unknown[])) logs.push(log);
          }
          logIndex += entry.logs.length;
        });
      }
      return logs;
    },
  };

  const answer = (request: unknown): Record<string, unknown> => {
    if (typeof request !== "object" || request === null || Array.isArray(request)) {
      return { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid Request" } };
    }
    const { id = null, method, params = [] } = request as Record<string, unknown>;
    try {
      if (typeof method !== "string") throw new RpcError(INVALID_REQUEST, "Invalid Request");
      if ((REFUSED_METHODS as readonly string[]).includes(method)) {
        throw new RpcError(METHOD_NOT_FOUND, `the method ${method} does not exist/is not available`);
      }
      const implementation = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!implementation) throw new RpcError(METHOD_NOT_FOUND, "method not found");
      return { jsonrpc: "2.0", id, result: implementation(Array.isArray(params) ? params : [params]) };
    } catch (error) {
      if (error instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data: "{}" } };
      return {
        jsonrpc: "2.0",
        id,
        error: { code: EXECUTION_ERROR, message: error instanceof Error ? error.message : String(error), data: "{}" },
      };
    }
  };

  return (body) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "JSON parse error" } };
    }
    return Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
  };
}
