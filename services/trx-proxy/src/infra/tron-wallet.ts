/**
 * The java-tron HTTP calls the proxy makes, over the shared node client. Requests use hex addresses
 * (the node's default `visible: false`), so answers are printed as java-tron prints them by default.
 */
import { ChaingateError } from "@chaingate/errors";
import { JsonNumber, type NodeClient } from "@chaingate/node-client";
import type { Trc10Metadata } from "../domain/trc10-metadata-cache.ts";
import { addressAbiWord, type Trc20Token, type TronAddress } from "@chaingate/tron";

/** java-tron's message for a constant call to an address without a contract. */
const NO_CONTRACT = "CONTRACT_VALIDATE_ERROR";

export type LosslessRecord = Record<string, unknown>;

/** `/wallet/getaccount`, numbers lossless; `{}` for an account never seen. */
export function getAccount(node: NodeClient, address: TronAddress, signal?: AbortSignal): Promise<LosslessRecord> {
  return node.request<LosslessRecord>("/wallet/getaccount", { body: { address: address.hex }, signal, lossless: true });
}

export function createTrc10Source(node: NodeClient) {
  return async (id: string, signal?: AbortSignal): Promise<Trc10Metadata | undefined> => {
    const asset = await node.request<{ id?: string; name?: string; abbr?: string; precision?: number }>("/wallet/getassetissuebyid", {
      body: { value: id },
      signal,
    });
    if (asset.name === undefined) return undefined;
    return { id, name: utf8FromHex(asset.name), symbol: utf8FromHex(asset.abbr ?? ""), precision: asset.precision ?? 0 };
  };
}

/**
 * A TRC-20 `balanceOf(holder)` by `/wallet/triggerconstantcontract`, in the token's base units.
 * A contract the node does not have (a mainnet whitelist on a test network) reads 0: the spec's
 * "not held or not tracked".
 */
export async function trc20BalanceOf(node: NodeClient, token: Trc20Token, holder: TronAddress, signal?: AbortSignal): Promise<bigint> {
  const answer = await node.request<{ result?: { result?: boolean; code?: string; message?: string }; constant_result?: string[] }>(
    "/wallet/triggerconstantcontract",
    {
      body: {
        owner_address: holder.hex,
        contract_address: token.contractHex,
        function_selector: "balanceOf(address)",
        parameter: addressAbiWord(holder),
      },
      signal,
    },
  );
  if (answer.result?.code === NO_CONTRACT) return 0n;
  const word = answer.constant_result?.[0];
  if (answer.result?.result !== true || answer.result.message !== undefined || word === undefined || !/^[0-9a-fA-F]{64}$/.test(word)) {
    throw new Trc20ReadError(
      token,
      answer.result?.code,
      answer.result?.message === undefined ? undefined : utf8FromHex(answer.result.message),
    );
  }
  return BigInt(`0x${word}`);
}

/** A whitelisted token's balanceOf failed in the node (reverted, other error). */
export class Trc20ReadError extends ChaingateError {
  override name = "Trc20ReadError" as const;
  readonly token: Trc20Token;
  /** The node's result code (java-tron's `result.code`), if it gave one. */
  readonly nodeCode: string | undefined;
  readonly nodeMessage: string | undefined;
  constructor(token: Trc20Token, nodeCode: string | undefined, nodeMessage: string | undefined) {
    super(
      "trc20_read_failed",
      `balanceOf on ${token.symbol} (${token.contract}) failed: ${nodeCode ?? "no result"} ${nodeMessage ?? ""}`.trim(),
    );
    this.token = token;
    this.nodeCode = nodeCode;
    this.nodeMessage = nodeMessage;
  }
}

/** java-tron prints byte fields (names, messages) as hex of their UTF-8 when `visible` is false. */
export function utf8FromHex(text: string): string {
  return /^([0-9a-fA-F]{2})*$/.test(text) ? Buffer.from(text, "hex").toString("utf8") : text;
}

/** A lossless number member as a bigint (absent → 0: java-tron omits zeros). */
export function bigintOf(value: unknown): bigint {
  if (value instanceof JsonNumber) return BigInt(value.text);
  if (typeof value === "number") return BigInt(value);
  return 0n;
}
