/** java-tron's JSON for accounts, blocks, transaction info, assets and contracts (JsonFormat rules: defaults omitted, `visible`). */
import { keccak_256 } from "@noble/hashes/sha3";
import { addressToBase58, fromEvmAddress } from "./address.ts";
import { FREE_NET_LIMIT_BYTES } from "./chain-parameters.ts";
import { FORWARDER_ABI } from "./forwarder-contract.ts";
import type { InternalTransaction } from "./forwarder-contract.ts";
import type { Trc10Token } from "./genesis.ts";
import { toHex, utf8ToHex } from "./hex.ts";
import type { AccountRecord } from "./ledger-state.ts";
import type { DevContract } from "./ledger/ledger-chain.ts";
import type { ExecutedTransaction } from "./ledger/executed-transaction.ts";
import type { StoredBlock } from "./ledger/stored-block.ts";
import { printTransaction } from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";

/** Resource window java-tron reports once an account has consumed bandwidth/energy (8 h in ms, "optimized" windows). */
const RESOURCE_WINDOW_SIZE = 28_800_000;
/** Operations bitmap of a default active permission (every contract type java-tron allows). */
const DEFAULT_ACTIVE_OPERATIONS = "7fff1fc0033efb0f000000000000000000000000000000000000000000000000";
const TOTAL_NET_LIMIT = 43_200_000_000;
/** TRC-10 issuance window reported by getassetissuebyid (the devnode's tokens are issued at genesis, for ten years). */
const ASSET_ISSUE_DURATION_MS = 10 * 365 * 86_400_000;
/** TRC-10 exchange rate fields (trx_num / num): 1 token per sun, as most dev tokens do. */
const ASSET_EXCHANGE_RATE = 1;
/** Energy limit a contract's origin offers callers (reported only; the devnode never shares energy). */
const ORIGIN_ENERGY_LIMIT = 10_000_000;
/** Share of energy paid by callers: all of it. */
const CONSUME_USER_RESOURCE_PERCENT = 100;
const TOTAL_ENERGY_LIMIT = 180_000_000_000;

function address(hex: string, visible: boolean): string {
  return visible ? addressToBase58(Buffer.from(hex, "hex")) : hex;
}

function text(value: string, visible: boolean): string {
  return visible ? value : utf8ToHex(value);
}

function omitDefaults(entries: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined || value === 0 || value === "" || value === false) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** `/wallet/getaccount`. */
export function printAccount(account: AccountRecord, visible: boolean): JsonObject {
  const key = { address: address(account.address, visible), weight: 1 };
  // Map entries print both key and value, even a zero value (java-tron's JsonFormat for map<string,int64>).
  const assets = [...account.assets.entries()].map(([tokenId, value]) => ({ key: tokenId, value }));
  return omitDefaults({
    address: address(account.address, visible),
    balance: account.balance,
    create_time: account.createTime,
    latest_opration_time: account.latestOperationTime,
    free_net_usage: account.freeNetUsage,
    latest_consume_free_time: account.latestConsumeFreeTime,
    net_window_size: account.latestConsumeFreeTime > 0 ? RESOURCE_WINDOW_SIZE : 0,
    net_window_optimized: account.latestConsumeFreeTime > 0,
    type: account.type === "Contract" ? "Contract" : undefined,
    account_resource: { energy_window_size: RESOURCE_WINDOW_SIZE, energy_window_optimized: true },
    owner_permission: { permission_name: "owner", threshold: 1, keys: [key] },
    active_permission: [
      { type: "Active", id: 2, permission_name: "active", threshold: 1, operations: DEFAULT_ACTIVE_OPERATIONS, keys: [key] },
    ],
    frozenV2: [{}, { type: "ENERGY" }, { type: "TRON_POWER" }],
    assetV2: assets,
    free_asset_net_usageV2: [...account.assets.keys()].map((tokenId) => ({ key: tokenId, value: 0 })),
    asset_optimized: true,
  });
}

/** `/wallet/getaccountresource` (no staking in the devnode: only free bandwidth). */
export function printAccountResource(account: AccountRecord, freeNetUsed: number): JsonObject {
  return omitDefaults({
    freeNetUsed,
    freeNetLimit: FREE_NET_LIMIT_BYTES,
    assetNetUsed: [...account.assets.keys()].map((tokenId) => ({ key: tokenId, value: 0 })),
    assetNetLimit: [...account.assets.keys()].map((tokenId) => ({ key: tokenId, value: 0 })),
    TotalNetLimit: TOTAL_NET_LIMIT,
    TotalNetWeight: 1,
    TotalEnergyLimit: TOTAL_ENERGY_LIMIT,
    TotalEnergyWeight: 1,
  });
}

/** A block; `detail: false` strips its transactions (getblock). */
export function printBlock(block: StoredBlock, visible: boolean, detail = true): JsonObject {
  const raw = block.raw;
  const out: JsonObject = {
    blockID: block.idHex,
    block_header: {
      raw_data: omitDefaults({
        number: raw.number,
        txTrieRoot: toHex(raw.txTrieRoot),
        witness_address: address(toHex(raw.witnessAddress), visible),
        parentHash: toHex(raw.parentHash),
        version: raw.version,
        timestamp: raw.timestamp,
      }),
      witness_signature: toHex(block.witnessSignature),
    },
  };
  if (detail && block.transactions.length > 0) {
    out.transactions = block.transactions.map((entry) => printTransaction(entry.transaction, visible));
  }
  return out;
}

/** `/wallet/gettransactioninfobyid` for a transaction in a block. */
export function printTransactionInfo(entry: ExecutedTransaction, visible: boolean): JsonObject {
  const receipt = omitDefaults({
    energy_fee: entry.energyFee,
    energy_usage_total: entry.energyUsageTotal,
    net_usage: entry.netUsage,
    net_fee: entry.netFee,
    result: entry.receiptResult,
    energy_penalty_total: entry.energyPenaltyTotal,
  });
  const failed = entry.receiptResult !== undefined && entry.receiptResult !== "SUCCESS";
  return omitDefaults({
    id: entry.id,
    fee: entry.fee,
    blockNumber: entry.blockNumber,
    blockTimeStamp: entry.blockTimestamp,
    contractResult: [toHex(entry.contractResult)],
    contract_address: entry.contractAddress ? address(toHex(entry.contractAddress), visible) : undefined,
    receipt,
    log: entry.logs.map((log) =>
      omitDefaults({
        address: visible ? addressToBase58(fromEvmAddress(log.address)) : toHex(log.address),
        topics: log.topics.map((topic) => toHex(topic)),
        data: toHex(log.data),
      }),
    ),
    result: failed ? "FAILED" : undefined,
    resMessage: failed && entry.resMessage ? text(entry.resMessage, visible) : undefined,
    internal_transactions: entry.internalTransactions.map((internal) => printInternalTransaction(internal, visible)),
  });
}

/**
 * One `internal_transactions` entry (Tron.proto `InternalTransaction`, TransactionUtil.buildInternalTransaction):
 * the TRX element first (`{}` when 0), then the token's; `note` stays hex even with `visible` (it is not one of
 * HttpSelfFormatFieldName's name fields), the two addresses turn Base58; `rejected` only when true.
 */
export function printInternalTransaction(internal: InternalTransaction, visible: boolean): JsonObject {
  const callValueInfo: JsonObject[] = [omitDefaults({ callValue: internal.callValue })];
  if (internal.token) callValueInfo.push({ callValue: internal.token.amount, tokenId: internal.token.id });
  return omitDefaults({
    hash: toHex(internal.hash),
    caller_address: address(toHex(internal.callerAddress), visible),
    transferTo_address: address(toHex(internal.transferToAddress), visible),
    callValueInfo,
    note: utf8ToHex(internal.note),
    rejected: internal.rejected,
  });
}

/** `/wallet/getassetissuebyid`. */
export function printAssetIssue(token: Trc10Token, visible: boolean, startTime: number): JsonObject {
  return omitDefaults({
    owner_address: address(token.ownerHex, visible),
    name: text(token.name, visible),
    abbr: text(token.abbr, visible),
    total_supply: token.totalSupply,
    trx_num: ASSET_EXCHANGE_RATE,
    precision: token.precision,
    num: ASSET_EXCHANGE_RATE,
    start_time: startTime,
    end_time: startTime + ASSET_ISSUE_DURATION_MS,
    description: text(token.description, visible),
    url: text(token.url, visible),
    id: token.id,
  });
}

/** The ABI of the devnode's TRC-20 contracts, in java-tron's enum spelling. */
export const TRC20_ABI = {
  entrys: [
    { constant: true, name: "name", outputs: [{ type: "string" }], stateMutability: "View", type: "Function" },
    { constant: true, name: "symbol", outputs: [{ type: "string" }], stateMutability: "View", type: "Function" },
    { constant: true, name: "decimals", outputs: [{ type: "uint8" }], stateMutability: "View", type: "Function" },
    { constant: true, name: "totalSupply", outputs: [{ type: "uint256" }], stateMutability: "View", type: "Function" },
    {
      constant: true,
      inputs: [{ name: "who", type: "address" }],
      name: "balanceOf",
      outputs: [{ type: "uint256" }],
      stateMutability: "View",
      type: "Function",
    },
    {
      constant: true,
      inputs: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
      ],
      name: "allowance",
      outputs: [{ type: "uint256" }],
      stateMutability: "View",
      type: "Function",
    },
    {
      inputs: [
        { name: "_to", type: "address" },
        { name: "_value", type: "uint256" },
      ],
      name: "transfer",
      outputs: [{ type: "bool" }],
      stateMutability: "Nonpayable",
      type: "Function",
    },
    {
      inputs: [
        { name: "_spender", type: "address" },
        { name: "_value", type: "uint256" },
      ],
      name: "approve",
      outputs: [{ type: "bool" }],
      stateMutability: "Nonpayable",
      type: "Function",
    },
    {
      inputs: [
        { name: "_from", type: "address" },
        { name: "_to", type: "address" },
        { name: "_value", type: "uint256" },
      ],
      name: "transferFrom",
      outputs: [{ type: "bool" }],
      stateMutability: "Nonpayable",
      type: "Function",
    },
    {
      anonymous: false,
      inputs: [
        { indexed: true, name: "from", type: "address" },
        { indexed: true, name: "to", type: "address" },
        { name: "value", type: "uint256" },
      ],
      name: "Transfer",
      type: "Event",
    },
    {
      anonymous: false,
      inputs: [
        { indexed: true, name: "owner", type: "address" },
        { indexed: true, name: "spender", type: "address" },
        { name: "value", type: "uint256" },
      ],
      name: "Approval",
      type: "Event",
    },
  ],
};

/** Placeholder runtime code: the devnode executes its contracts natively, so this is a marker, not EVM bytecode. */
export function devnodeRuntimeCode(contract: DevContract): string {
  return utf8ToHex(contract.kind === "trc20" ? `tron-devnode native TRC-20 ${contract.token.symbol}` : "tron-devnode native forwarder");
}

/** `/wallet/getcontract`. */
export function printSmartContract(contract: DevContract, visible: boolean): JsonObject {
  const described = contract.kind === "trc20" ? contract.token : contract.forwarder;
  return {
    origin_address: address(described.originHex, visible),
    contract_address: address(described.hex, visible),
    abi: contract.kind === "trc20" ? TRC20_ABI : FORWARDER_ABI,
    bytecode: devnodeRuntimeCode(contract),
    consume_user_resource_percent: CONSUME_USER_RESOURCE_PERCENT,
    name: contract.kind === "trc20" ? contract.token.symbol : contract.forwarder.name,
    origin_energy_limit: ORIGIN_ENERGY_LIMIT,
    code_hash: toHex(keccak_256(Buffer.from(devnodeRuntimeCode(contract), "hex"))),
  };
}
