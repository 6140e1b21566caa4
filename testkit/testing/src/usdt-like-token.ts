/**
 * Deploys `contracts/UsdtLikeToken.sol` (a plain ERC-20 with 6 decimals, symbol USDT) on a Hardhat
 * node: the dev stack's ERC-20 for the scanner's token whitelist, and the tests'. Compiled at run
 * time with solc-js (no compiler binary to download), once per process.
 */
import type { HardhatNode } from "./hardhat-node.ts";
import { compileTestContracts } from "./solidity.ts";

export const USDT_LIKE_DECIMALS = 6;
/** 1,000,000,000 USDT in base units, all to the deployer. */
export const USDT_LIKE_SUPPLY = 10n ** 15n;

export interface DeployedToken {
  /** Lower-case 0x address. */
  address: string;
  symbol: "USDT";
  decimals: number;
  /** Call data of `transfer(to, amount)`. */
  transferData(to: string, amount: bigint): string;
  /** `balanceOf(owner)` read with eth_call. */
  balanceOf(owner: string): Promise<bigint>;
}

/** Creation bytecode (0x…) of the token, compiled on first use. */
export function usdtLikeTokenBytecode(): string {
  return compileTestContracts("UsdtLikeToken.sol").UsdtLikeToken!.bytecode;
}

const word = (hex: string) => hex.padStart(64, "0");

/** Deploys the token from `node.accounts[deployer]` (default the first account), which receives the supply. */
export async function deployUsdtLikeToken(node: HardhatNode, deployer = 0): Promise<DeployedToken> {
  const from = node.accounts[deployer]!.address;
  const hash = await node.rpc<string>("eth_sendTransaction", [
    { from, data: `${usdtLikeTokenBytecode()}${word(USDT_LIKE_SUPPLY.toString(16))}` },
  ]);
  const receipt = await node.rpc<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [hash]);
  if (receipt.status !== "0x1") throw new Error(`the token's deployment failed (${hash})`);
  const address = receipt.contractAddress.toLowerCase();
  return {
    address,
    symbol: "USDT",
    decimals: USDT_LIKE_DECIMALS,
    transferData: (to, amount) => `0xa9059cbb${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`,
    async balanceOf(owner) {
      return BigInt(
        await node.rpc<string>("eth_call", [{ to: address, data: `0x70a08231${word(owner.slice(2).toLowerCase())}` }, "latest"]),
      );
    },
  };
}
