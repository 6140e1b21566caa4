import type { Ledger } from "../ledger.ts";

/** What every JSON-RPC method reads: the ledger and the settings fixed when the handler is created. */
export interface JsonRpcContext {
  ledger: Ledger;
  /** `eth_chainId`/`net_version`: the last 4 bytes of the genesis blockID, as java-tron reports it. */
  chainId: string;
  /** eth_getLogs' largest block range; 0 or less = no limit. */
  maxBlockRange: number;
}

/** JSON-RPC methods by name: each takes the request's params and returns the result. */
export type JsonRpcMethods = Record<string, (params: unknown[]) => unknown>;
