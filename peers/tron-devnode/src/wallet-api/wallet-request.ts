import type { JsonObject } from "../transaction-json.ts";

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
