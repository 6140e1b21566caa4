/**
 * The java-tron HTTP API subset: handlers for `/wallet/*` and their `/walletsolidity/*` twins.
 * Each handler returns the JSON body java-tron would print (always with HTTP 200); the handlers live in
 * `wallet-api/`, one module per endpoint family.
 */
import type { Ledger } from "./ledger.ts";
import { getAccount, getAccountResource, getAssetIssueById } from "./wallet-api/account-handlers.ts";
import {
  getBlock,
  getBlockById,
  getBlockByLatestNum,
  getBlockByLimitNext,
  getBlockByNum,
  getNowBlock,
} from "./wallet-api/block-handlers.ts";
import {
  estimateEnergy,
  getContract,
  getContractInfo,
  triggerConstantContract,
  triggerSmartContract,
} from "./wallet-api/contract-handlers.ts";
import { fromJavaError } from "./wallet-api/java-error.ts";
import { getChainParameters, getNodeInfo } from "./wallet-api/node-info-handlers.ts";
import {
  broadcastTransaction,
  buildTransfer,
  getTransactionById,
  getTransactionFromPending,
  getTransactionInfoByBlockNum,
  getTransactionInfoById,
} from "./wallet-api/transaction-handlers.ts";
import type { WalletHandler } from "./wallet-api/wallet-request.ts";

/** Creates the handler table for a ledger, keyed by endpoint name (without prefix). */
export function createWalletApi(ledger: Ledger): { wallet: Map<string, WalletHandler>; solidity: Map<string, WalletHandler> } {
  // Served under both /wallet and /walletsolidity (the latter reads the solidified view).
  const common: [string, WalletHandler][] = [
    ["getaccount", (request) => getAccount(ledger, request)],
    ["getnowblock", (request) => getNowBlock(ledger, request)],
    ["getblockbynum", (request) => getBlockByNum(ledger, request)],
    ["getblockbyid", (request) => getBlockById(ledger, request)],
    ["getblock", (request) => getBlock(ledger, request)],
    ["getblockbylatestnum", (request) => getBlockByLatestNum(ledger, request)],
    ["getblockbylimitnext", (request) => getBlockByLimitNext(ledger, request)],
    ["gettransactionbyid", (request) => getTransactionById(ledger, request)],
    ["gettransactioninfobyid", (request) => getTransactionInfoById(ledger, request)],
    ["gettransactioninfobyblocknum", (request) => getTransactionInfoByBlockNum(ledger, request)],
    ["getassetissuebyid", (request) => getAssetIssueById(ledger, request)],
    ["triggerconstantcontract", (request) => triggerConstantContract(ledger, request)],
  ];

  const walletOnly: [string, WalletHandler][] = [
    ["createtransaction", (request) => buildTransfer(ledger, "TransferContract", request)],
    ["transferasset", (request) => buildTransfer(ledger, "TransferAssetContract", request)],
    ["triggersmartcontract", (request) => triggerSmartContract(ledger, request)],
    ["estimateenergy", (request) => estimateEnergy(ledger, request)],
    ["broadcasttransaction", (request) => broadcastTransaction(ledger, request)],
    ["gettransactionfrompending", (request) => getTransactionFromPending(ledger, request)],
    ["getaccountresource", (request) => getAccountResource(ledger, request)],
    ["getcontract", (request) => getContract(ledger, request)],
    ["getcontractinfo", (request) => getContractInfo(ledger, request)],
    ["getchainparameters", () => getChainParameters()],
    ["getnodeinfo", () => getNodeInfo(ledger)],
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
