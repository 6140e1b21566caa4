/**
 * A node's chain identity, read per chain, and the node client's endpoint check built on it.
 *
 * Bitcoin: the genesis block hash (`getblockhash 0`): mainnet, testnet, signet and regtest differ.
 * Ethereum: `eth_chainId` and block 0's hash: a fork or dev chain can share a chain id
 * (Hardhat's 31337), and Hardhat's genesis carries its start time, so each start is a new chain.
 * Tron: block 0's `blockID` (`/wallet/getblockbynum {num: 0}`; mainnet 00000000000000001ebf…).
 * Each identity also names the chain as events carry it, a CAIP-2 id (see `chainIdSchema`).
 */
import type { ChainKind } from "@chaingate/chain-registry";
import type { NodeClient, NodeEndpoint } from "@chaingate/node-client";
import type { ChainNode } from "../domain/chain-guard.ts";

export type IdentityReader = (node: Pick<NodeEndpoint, "call" | "request">) => Promise<string>;

/** The CAIP-2 id of the chain an identity (as its reader writes it) names. */
export type ChainIdOf = (identity: string) => string;

const genesisOf = (identity: string) => /genesis (?:0x)?([0-9a-fA-F]+)/.exec(identity)?.[1]?.toLowerCase() ?? "";

/** BIP-122: the genesis block hash's first 32 hex digits. */
export const bitcoinChainId: ChainIdOf = (identity) => `bip122:${genesisOf(identity).slice(0, 32)}`;
/** EIP-155: the decimal chain id. */
export const ethereumChainId: ChainIdOf = (identity) => `eip155:${/chain id (\d+)/.exec(identity)?.[1] ?? ""}`;
/** Tron: the genesis block id's last 4 bytes, as java-tron's `eth_chainId` answers them. */
export const tronChainId: ChainIdOf = (identity) => `tron:0x${genesisOf(identity).slice(-8)}`;

export const readBitcoinIdentity: IdentityReader = async (node) => `genesis ${await node.call<string>("getblockhash", [0])}`;

export const readEthereumIdentity: IdentityReader = async (node) => {
  const [chainId, genesis] = await Promise.all([
    node.call<string>("eth_chainId"),
    node.call<{ hash?: string } | null>("eth_getBlockByNumber", ["0x0", false]),
  ]);
  if (!genesis?.hash) throw new Error("the node answered no block 0");
  return `chain id ${BigInt(chainId).toString()}, genesis ${genesis.hash}`;
};

export const readTronIdentity: IdentityReader = async (node) => {
  const genesis = await node.request<{ blockID?: string }>("/wallet/getblockbynum", { body: { num: 0 } });
  if (!genesis.blockID) throw new Error("the node answered no block 0");
  return `genesis ${genesis.blockID}`;
};

/** How a kind of chain's nodes are identified, and the CAIP-2 id an identity names. */
export const IDENTITY_BY_KIND: Record<ChainKind, { read: IdentityReader; chainIdOf: ChainIdOf }> = {
  bitcoin: { read: readBitcoinIdentity, chainIdOf: bitcoinChainId },
  evm: { read: readEthereumIdentity, chainIdOf: ethereumChainId },
  tron: { read: readTronIdentity, chainIdOf: tronChainId },
};

export interface ChainIdentityCheck {
  /** The node client's `verifyEndpoint`: refuses a URL whose node serves another chain than the expected one. */
  verifyEndpoint(endpoint: NodeEndpoint): Promise<string | undefined>;
  /** The guard's view of the client. */
  node(client: NodeClient): ChainNode & { answering(): boolean };
  /** The CAIP-2 id of the chain the guard expects; undefined until it has adopted one. */
  chainId(): string | undefined;
}

/**
 * `evmChainId`: a configured EVM chain's id (EVM_CHAINS); a node answering another is refused from
 * the first call on, before the guard adopts any identity.
 */
export function createChainIdentityCheck(read: IdentityReader, chainIdOf: ChainIdOf, evmChainId?: number): ChainIdentityCheck {
  let expected: string | undefined;
  return {
    chainId: () => (expected === undefined ? undefined : chainIdOf(expected)),
    async verifyEndpoint(endpoint) {
      const actual = await read(endpoint);
      if (evmChainId !== undefined && chainIdOf(actual) !== `eip155:${evmChainId}`) return `serves ${actual}, not chain id ${evmChainId}`;
      return expected === undefined || actual === expected ? undefined : `serves ${actual}, not ${expected}`;
    },
    node(client) {
      return {
        identity: () => read(client),
        expect: (identity) => void (expected = identity),
        refusals: () =>
          client
            .upstreams()
            .flatMap((upstream) =>
              upstream.refused === undefined || upstream.healthy ? [] : [{ url: upstream.url, reason: upstream.refused }],
            ),
        answering: () => client.upstreams().some((upstream) => upstream.healthy),
      };
    },
  };
}
