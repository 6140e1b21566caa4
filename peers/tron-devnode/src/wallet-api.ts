/**
 * The java-tron HTTP API subset: handlers for `/wallet/*` and their `/walletsolidity/*` twins.
 * Each handler returns the JSON body java-tron would print (always with HTTP 200).
 */
import { keccak_256 } from "@noble/hashes/sha3";
import { CHAIN_PARAMETERS, FREE_NET_LIMIT_BYTES, NET_WINDOW_MS } from "./chain-parameters.ts";
import { transactionId } from "./encode-transaction.ts";
import { toHex, utf8ToHex } from "./hex.ts";
import { TransactionRejected, parseHash } from "./ledger.ts";
import type { Ledger } from "./ledger.ts";
import type { ChainView, StoredBlock } from "./ledger.ts";
import {
  devnodeRuntimeCode,
  printAccount,
  printAccountResource,
  printAssetIssue,
  printBlock,
  printSmartContract,
  printTransactionInfo,
} from "./print-chain-json.ts";
import {
  JavaNullPointer,
  JsonParseError,
  jsonValuePosition,
  parseAddressField,
  parseBytesField,
  parseContractValue,
  parseInt64,
  parseTransactionJson,
  printTransaction,
  TransactionNotPacked,
} from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";
import type { Transaction, TransactionContract } from "./transaction.ts";

/** java-tron's code version reported by getnodeinfo (TronWeb reads it). */
export const NODE_CODE_VERSION = "4.8.0";
/** `getnodeinfo.configNodeInfo`: java-tron's fields; a devnode has no peers, so most values are placeholders. */
const NODE_CONFIG_INFO = {
  activeNodeSize: 0,
  allowAdaptiveEnergy: 0,
  allowCreationOfContracts: 1,
  backupListenPort: 10001,
  backupMemberSize: 0,
  backupPriority: 8,
  codeVersion: NODE_CODE_VERSION,
  dbVersion: 2,
  discoverEnable: false,
  listenPort: 18888,
  maxConnectCount: 30,
  maxTimeRatio: 5,
  minParticipationRate: 0,
  minTimeRatio: 0,
  p2pVersion: "tron-devnode",
  passiveNodeSize: 0,
  sameIpMaxConnectCount: 2,
  sendNodeSize: 0,
  supportConstant: true,
  versionNum: "0",
} as const;
/** Most blocks getblockbylatestnum / getblockbylimitnext return (`BLOCK_LIMIT_NUM`). */
const BLOCK_LIMIT_NUM = 100;
const JAVA_EXCEPTION = {
  contractValidate: "class org.tron.core.exception.ContractValidateException",
  parse: "class org.tron.core.services.http.JsonFormat$ParseException",
  nullPointer: "class java.lang.NullPointerException",
} as const;

/** One parsed API request. */
export interface WalletRequest {
  /** Body fields (POST) or query parameters (GET). */
  params: JsonObject;
  visible: boolean;
  /** True for `/walletsolidity/*`: state as of the solidified block. */
  solidity: boolean;
  method: "GET" | "POST";
  /** A POST's JSON body as sent (what java-tron's JsonFormat parses), for parse-error positions. */
  jsonText?: string;
}

/** A handler: returns the JSON body. */
export type WalletHandler = (request: WalletRequest) => unknown;

/** The body java-tron's `Util.processError` prints. */
export function errorBody(javaClass: string, message: string): { Error: string } {
  return { Error: `${javaClass} : ${message}` };
}

function fromJavaError(error: unknown, request: WalletRequest): { Error: string } {
  if (error instanceof JavaNullPointer) return errorBody(JAVA_EXCEPTION.nullPointer, "null");
  if (error instanceof JsonParseError) {
    // A GET servlet builds `{"<field>":<value>}` from its parameter before JsonFormat parses it.
    const text =
      error.field && request.method === "GET" ? JSON.stringify({ [error.field]: request.params[error.field] }) : request.jsonText;
    const position = error.field && text !== undefined ? jsonValuePosition(text, error.field) : undefined;
    return errorBody(JAVA_EXCEPTION.parse, position ? `${position}: ${error.message}` : error.message);
  }
  if (error instanceof TransactionRejected) return errorBody(JAVA_EXCEPTION.contractValidate, error.message);
  throw error;
}

function visibleText(message: string, visible: boolean): string {
  return visible ? message : utf8ToHex(message);
}

/** The trigger servlets' catch-all: `OTHER_ERROR` with `e.getClass() + " : " + message` (double quotes made single). */
function otherError(error: unknown, request: WalletRequest): { result: { code: "OTHER_ERROR"; message: string } } {
  const body = fromJavaError(error, request).Error.replace(/"/g, "'");
  return { result: { code: "OTHER_ERROR", message: visibleText(body, request.visible) } };
}

/** The trigger servlets' answer to an exception: ContractValidateException as CONTRACT_VALIDATE_ERROR, the rest OTHER_ERROR. */
function triggerError(error: unknown, request: WalletRequest): { result: { code: string; message: string } } {
  if (error instanceof TransactionRejected) {
    return { result: { code: "CONTRACT_VALIDATE_ERROR", message: visibleText(error.message, request.visible) } };
  }
  return otherError(error, request);
}

function functionData(params: JsonObject): Uint8Array {
  const selector = params.function_selector;
  if (typeof selector === "string" && selector.length > 0) {
    const parameter = parseBytesField(params.parameter ?? "", "parameter");
    return Uint8Array.from([...keccak_256(selector.replace(/\s/g, "")).subarray(0, 4), ...parameter]);
  }
  return parseBytesField(params.data, "data");
}

function triggerContract(params: JsonObject, visible: boolean): Extract<TransactionContract, { type: "TriggerSmartContract" }> {
  const contract = parseContractValue(
    "TriggerSmartContract",
    { ...params, data: undefined },
    visible,
    parseInt64(params.Permission_id, "Permission_id"),
  );
  contract.value.data = functionData(params);
  return contract;
}

function memo(params: JsonObject, visible: boolean): Uint8Array | undefined {
  const extra = params.extra_data;
  if (typeof extra !== "string" || extra.length === 0) return undefined;
  return visible ? new TextEncoder().encode(extra) : parseBytesField(extra, "extra_data");
}

/** Creates the handler table for a ledger, keyed by endpoint name (without prefix). */
export function createWalletApi(ledger: Ledger): { wallet: Map<string, WalletHandler>; solidity: Map<string, WalletHandler> } {
  const chain = (request: WalletRequest): ChainView => ledger.view(request.solidity);

  const blockOrEmpty = (block: StoredBlock | undefined, visible: boolean, detail = true): unknown =>
    block ? printBlock(block, visible, detail) : {};

  // Util.printBlockList: `{"block":[…]}`, an empty array when no block matched.
  const blockList = (blocks: StoredBlock[], visible: boolean): unknown => ({ block: blocks.map((block) => printBlock(block, visible)) });

  const builder =
    (type: "TransferContract" | "TransferAssetContract"): WalletHandler =>
    (request) => {
      try {
        const contract = parseContractValue(
          type,
          request.params,
          request.visible,
          parseInt64(request.params.Permission_id, "Permission_id"),
        );
        ledger.validateForBuilder(contract, 0);
        const raw = ledger.builderRaw(contract, { memo: memo(request.params, request.visible) });
        return printTransaction({ raw, signatures: [] }, request.visible, true);
      } catch (error) {
        return fromJavaError(error, request);
      }
    };

  const common: [string, WalletHandler][] = [
    [
      "getaccount",
      (request) => {
        const address = parseAddressField(request.params.address, request.visible, "address");
        const account = address ? chain(request).state.accounts.get(toHex(address)) : undefined;
        return account ? printAccount(account, request.visible) : {};
      },
    ],
    ["getnowblock", (request) => printBlock(chain(request).head, request.visible)],
    [
      "getblockbynum",
      (request) => {
        try {
          return blockOrEmpty(chain(request).blockByNumber(parseInt64(request.params.num, "num")), request.visible);
        } catch (error) {
          return fromJavaError(error, request);
        }
      },
    ],
    [
      "getblockbyid",
      (request) => {
        const id = parseHash(request.params.value);
        return blockOrEmpty(id ? chain(request).blockById(id) : undefined, request.visible);
      },
    ],
    [
      "getblock",
      (request) => {
        const idOrNum = request.params.id_or_num;
        const detail = request.params.detail === true || request.params.detail === "true";
        if (idOrNum === undefined || idOrNum === null || idOrNum === "") return printBlock(chain(request).head, request.visible, detail);
        const text = String(idOrNum);
        if (/^\d{1,15}$/.test(text)) return blockOrEmpty(chain(request).blockByNumber(Number(text)), request.visible, detail);
        const id = parseHash(text);
        if (!id) return { Error: "id must be legal block hash." };
        return blockOrEmpty(chain(request).blockById(id), request.visible, detail);
      },
    ],
    [
      "getblockbylatestnum",
      (request) => {
        try {
          const count = parseInt64(request.params.num, "num");
          if (count <= 0 || count >= BLOCK_LIMIT_NUM) return {};
          const view = chain(request);
          const head = view.head.raw.number;
          const blocks: StoredBlock[] = [];
          for (let number = Math.max(0, head - count + 1); number <= head; number += 1)
            blocks.push(view.blockByNumber(number) as StoredBlock);
          return blockList(blocks, request.visible);
        } catch (error) {
          return fromJavaError(error, request);
        }
      },
    ],
    [
      "getblockbylimitnext",
      (request) => {
        try {
          const start = parseInt64(request.params.startNum, "startNum");
          const end = parseInt64(request.params.endNum, "endNum");
          if (end <= 0 || end <= start || end - start > BLOCK_LIMIT_NUM) return {};
          // java-tron's BlockStore.getLimitNumber: the blocks that exist in [start, end), possibly none.
          const view = chain(request);
          const blocks: StoredBlock[] = [];
          for (let number = Math.max(start, 0); start >= 0 && number < end; number += 1) {
            const block = view.blockByNumber(number);
            if (block) blocks.push(block);
          }
          return blockList(blocks, request.visible);
        } catch (error) {
          return fromJavaError(error, request);
        }
      },
    ],
    [
      "gettransactionbyid",
      (request) => {
        const id = parseHash(request.params.value);
        const entry = id ? chain(request).executedTransaction(id) : undefined;
        return entry ? printTransaction(entry.transaction, request.visible) : {};
      },
    ],
    [
      "gettransactioninfobyid",
      (request) => {
        const id = parseHash(request.params.value);
        const entry = id ? chain(request).executedTransaction(id) : undefined;
        return entry ? printTransactionInfo(entry, request.visible) : {};
      },
    ],
    [
      "gettransactioninfobyblocknum",
      (request) => {
        try {
          const number = parseInt64(request.params.num, "num");
          if (number <= 0) return {};
          // Wallet.getTransactionInfoByBlockNum: a block that does not exist (yet) is an empty list, not {}.
          const block = chain(request).blockByNumber(number);
          return (block?.transactions ?? []).map((entry) => printTransactionInfo(entry, request.visible));
        } catch (error) {
          return fromJavaError(error, request);
        }
      },
    ],
    [
      "getassetissuebyid",
      (request) => {
        const token = ledger.genesis.trc10.find((candidate) => candidate.id === String(request.params.value ?? ""));
        return token ? printAssetIssue(token, request.visible, ledger.genesis.timestamp) : {};
      },
    ],
    [
      "triggerconstantcontract",
      (request) => {
        try {
          const contract = triggerContract(request.params, request.visible);
          const result = ledger.callConstant(contract.value, request.solidity);
          if (result.kind === "noContract") {
            return {
              result: {
                code: "CONTRACT_VALIDATE_ERROR",
                message: visibleText("No contract or not a valid smart contract", request.visible),
              },
            };
          }
          const raw = ledger.builderRaw(contract, { feeLimit: parseInt64(request.params.fee_limit, "fee_limit") });
          const execution = result.execution;
          const reverted = execution.status === "REVERT";
          const transaction = {
            ret: [reverted ? { ret: "FAILED" } : {}],
            ...printTransaction({ raw, signatures: [] }, request.visible, true),
          };
          return {
            result: reverted ? { result: true, message: visibleText("REVERT opcode executed", request.visible) } : { result: true },
            energy_used: execution.energyUsed,
            ...(execution.energyPenalty > 0 ? { energy_penalty: execution.energyPenalty } : {}),
            constant_result: [toHex(execution.returnData)],
            transaction,
          };
        } catch (error) {
          return triggerError(error, request);
        }
      },
    ],
  ];

  const walletOnly: [string, WalletHandler][] = [
    ["createtransaction", builder("TransferContract")],
    ["transferasset", builder("TransferAssetContract")],
    [
      "triggersmartcontract",
      (request) => {
        try {
          const contract = triggerContract(request.params, request.visible);
          const feeLimit = parseInt64(request.params.fee_limit, "fee_limit");
          ledger.validateForBuilder(contract, feeLimit);
          const raw = ledger.builderRaw(contract, { feeLimit, memo: memo(request.params, request.visible) });
          return { result: { result: true }, transaction: printTransaction({ raw, signatures: [] }, request.visible, true) };
        } catch (error) {
          return triggerError(error, request);
        }
      },
    ],
    [
      "estimateenergy",
      (request) => {
        try {
          const result = ledger.callConstant(triggerContract(request.params, request.visible).value);
          if (result.kind === "noContract") {
            return {
              result: {
                code: "CONTRACT_VALIDATE_ERROR",
                message: visibleText("No contract or not a valid smart contract", request.visible),
              },
            };
          }
          if (result.execution.status === "REVERT") {
            return { result: { result: true, message: visibleText("REVERT opcode executed", request.visible) } };
          }
          return { result: { result: true }, energy_required: result.execution.energyUsed };
        } catch (error) {
          return triggerError(error, request);
        }
      },
    ],
    [
      "broadcasttransaction",
      (request) => {
        let transaction: Transaction;
        try {
          transaction = parseTransactionJson(request.params, request.visible);
        } catch (error) {
          if (error instanceof TransactionNotPacked) return errorBody(JAVA_EXCEPTION.nullPointer, "null");
          return fromJavaError(error, request);
        }
        const txid = toHex(transactionId(transaction.raw));
        try {
          ledger.broadcast(transaction);
          return { result: true, txid };
        } catch (error) {
          if (!(error instanceof TransactionRejected)) throw error;
          const message = error.code === "CONTRACT_VALIDATE_ERROR" ? `Contract validate error : ${error.message}` : error.message;
          return { code: error.code, txid, message: visibleText(message, request.visible) };
        }
      },
    ],
    [
      "gettransactionfrompending",
      (request) => {
        const id = parseHash(request.params.value);
        const entry = id ? ledger.pendingTransactions.find((candidate) => candidate.id === id) : undefined;
        return entry ? printTransaction({ ...entry.transaction, contractRet: undefined }, request.visible) : {};
      },
    ],
    [
      "getaccountresource",
      (request) => {
        const address = parseAddressField(request.params.address, request.visible, "address");
        const account = address ? ledger.pendingView.accounts.get(toHex(address)) : undefined;
        if (!account) return {};
        const elapsed = ledger.head.raw.timestamp - account.latestConsumeFreeTime;
        const used = elapsed >= NET_WINDOW_MS ? 0 : Math.ceil((account.freeNetUsage * (NET_WINDOW_MS - elapsed)) / NET_WINDOW_MS);
        return printAccountResource(account, Math.min(used, FREE_NET_LIMIT_BYTES));
      },
    ],
    [
      "getcontract",
      (request) => {
        const address = parseAddressField(request.params.value, request.visible, "value");
        const contract = address ? ledger.contract(toHex(address)) : undefined;
        return contract ? printSmartContract(contract, request.visible) : {};
      },
    ],
    [
      "getcontractinfo",
      (request) => {
        const address = parseAddressField(request.params.value, request.visible, "value");
        const contract = address ? ledger.contract(toHex(address)) : undefined;
        if (!contract) return {};
        // The dynamic energy factor applies to the tokens only (the "popular" contracts).
        const factor = contract.kind === "trc20" ? ledger.energyCosts.energyFactor : 0;
        return {
          smart_contract: printSmartContract(contract, request.visible),
          runtimecode: devnodeRuntimeCode(contract),
          contract_state: factor > 0 ? { energy_factor: factor } : {},
        };
      },
    ],
    ["getchainparameters", () => ({ chainParameter: CHAIN_PARAMETERS.map(({ key, value }) => (value === 0 ? { key } : { key, value })) })],
    [
      "getnodeinfo",
      () => {
        const head = ledger.head;
        const solid = ledger.solid;
        return {
          activeConnectCount: 0,
          beginSyncNum: head.raw.number,
          block: `Num:${head.raw.number},ID:${head.idHex}`,
          cheatWitnessInfoMap: {},
          configNodeInfo: NODE_CONFIG_INFO,
          currentConnectCount: 0,
          machineInfo: {
            cpuCount: 2,
            javaVersion: "tron-devnode (Node.js " + process.versions.node + ")",
            jvmFreeMemory: 0,
            jvmTotalMemory: 0,
            osName: process.platform,
            processCpuRate: 0,
            threadCount: 1,
          },
          passiveConnectCount: 0,
          peerList: [],
          solidityBlock: `Num:${solid.raw.number},ID:${solid.idHex}`,
          totalFlow: 0,
        };
      },
    ],
  ];

  // Request-parsing exceptions become java-tron's `Util.processError` body, whichever handler meets them.
  const guarded = (entries: [string, WalletHandler][]): [string, WalletHandler][] =>
    entries.map(([name, handler]) => [
      name,
      (request) => {
        try {
          return handler(request);
        } catch (error) {
          return fromJavaError(error, request);
        }
      },
    ]);
  const wallet = new Map<string, WalletHandler>(guarded([...common, ...walletOnly]));
  const solidity = new Map<string, WalletHandler>(guarded(common));
  return { wallet, solidity };
}
