/**
 * Unsigned transfers built by the node (so TAPOS, expiration and encoding are java-tron's own):
 * createtransaction (TRX, sun), transferasset (TRC-10, token units, asset_name = hex of the id) and
 * triggersmartcontract `transfer(address,uint256)` with a fee_limit (TRC-20, token units).
 */
import { hasErrorCode } from "@chaingate/errors";
import { nodeErrorCodes, tron, type NodeClient, type NodeRpcError } from "@chaingate/node-client";
import { addressAbiWord, type Trc20Token, type TronAddress } from "@chaingate/tron";
import { utf8FromHex, type LosslessRecord } from "./tron-wallet.ts";

export type Transfer =
  | { kind: "trx"; from: TronAddress; to: TronAddress; amount: bigint; tokenId?: undefined }
  | { kind: "trc10"; from: TronAddress; to: TronAddress; amount: bigint; tokenId: string }
  | { kind: "trc20"; from: TronAddress; to: TronAddress; amount: bigint; token: Trc20Token; feeLimit: bigint };

export type BuiltTransfer = { ok: true; transaction: LosslessRecord } | { ok: false; code?: string; message: string };

const RPC_ERROR = nodeErrorCodes(tron.id).rpcError;
/** java-tron's exception prefix (`class org.tron…ContractValidateException : `), noise to a client. */
const EXCEPTION_PREFIX = /^class [\w.$]+ : /;

/** The TRC-20 `transfer(address,uint256)` parameter: recipient word ‖ amount word. */
export function trc20TransferParameter(to: TronAddress, amount: bigint): string {
  return `${addressAbiWord(to)}${amount.toString(16).padStart(64, "0")}`;
}

export async function buildTransfer(node: NodeClient, transfer: Transfer, signal?: AbortSignal): Promise<BuiltTransfer> {
  try {
    if (transfer.kind === "trc20") {
      const answer = await node.request<{ result?: { result?: boolean; code?: string; message?: string }; transaction?: LosslessRecord }>(
        "/wallet/triggersmartcontract",
        {
          body: {
            owner_address: transfer.from.hex,
            contract_address: transfer.token.contractHex,
            function_selector: "transfer(address,uint256)",
            parameter: trc20TransferParameter(transfer.to, transfer.amount),
            call_value: 0,
            fee_limit: Number(transfer.feeLimit),
          },
          signal,
          lossless: true,
        },
      );
      if (answer.result?.result !== true || !answer.transaction) {
        return { ok: false, code: answer.result?.code, message: utf8FromHex(answer.result?.message ?? "the node built no transaction") };
      }
      return { ok: true, transaction: answer.transaction };
    }
    const common = { owner_address: transfer.from.hex, to_address: transfer.to.hex, amount: Number(transfer.amount) };
    const transaction =
      transfer.kind === "trx"
        ? await node.request<LosslessRecord>("/wallet/createtransaction", { body: common, signal, lossless: true })
        : await node.request<LosslessRecord>("/wallet/transferasset", {
            body: { ...common, asset_name: Buffer.from(transfer.tokenId, "utf8").toString("hex") },
            signal,
            lossless: true,
          });
    return { ok: true, transaction };
  } catch (error) {
    if (!hasErrorCode(error, RPC_ERROR)) throw error;
    return { ok: false, message: (error as NodeRpcError).rpcMessage.replace(EXCEPTION_PREFIX, "") };
  }
}
