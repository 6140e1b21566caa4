/**
 * Deploys a token of `contracts/UnlistedTokens.sol` on a Hardhat or Anvil node: one without
 * `decimals()`, or a spam token whose `decimals()` burns all its gas. The whole supply goes to the
 * deployer; `transferData` pays from there.
 */
import type { HardhatNode } from "./hardhat-node.ts";
import { compileTestContracts } from "./solidity.ts";

export type UnlistedTokenKind = "NoDecimalsToken" | "GasBurningDecimalsToken";

export interface UnlistedToken {
  /** Lower-case 0x address. */
  address: string;
  /** Call data of `transfer(to, amount)`. */
  transferData(to: string, amount: bigint): string;
}

const word = (hex: string) => hex.padStart(64, "0");

export async function deployUnlistedToken(node: HardhatNode, kind: UnlistedTokenKind, deployer = 0): Promise<UnlistedToken> {
  const bytecode = compileTestContracts("UnlistedTokens.sol")[kind]!.bytecode;
  const hash = await node.rpc<string>("eth_sendTransaction", [
    { from: node.accounts[deployer]!.address, data: `${bytecode}${word((10n ** 30n).toString(16))}` },
  ]);
  const receipt = await node.rpc<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [hash]);
  if (receipt.status !== "0x1") throw new Error(`${kind}'s deployment failed (${hash})`);
  return {
    address: receipt.contractAddress.toLowerCase(),
    transferData: (to, amount) => `0xa9059cbb${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`,
  };
}
