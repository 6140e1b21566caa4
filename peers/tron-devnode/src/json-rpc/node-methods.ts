/** Node and chain facts: web3_*, net_*, eth_chainId, eth_blockNumber, eth_gasPrice and the mining stubs. */
import { keccak_256 } from "@noble/hashes/sha3";
import { ENERGY_FEE_SUN } from "../chain-parameters.ts";
import { parseHex, toHex } from "../hex.ts";
import { BLOCK_VERSION } from "../ledger/seal-block.ts";
import { NODE_CODE_VERSION } from "../wallet-api/node-info-handlers.ts";
import { evmAddress, quantity } from "./eth-format.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";

/** The node-information methods. */
export function nodeMethods({ ledger, chainId }: JsonRpcContext): JsonRpcMethods {
  return {
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
  };
}
