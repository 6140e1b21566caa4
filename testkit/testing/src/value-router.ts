/**
 * Deploys `contracts/ValueRouter.sol` on a dev node (Anvil or Hardhat) and sends its calls from the
 * node's unlocked dev accounts: money that reaches an address through a contract (internal
 * transfers), as multisigs, smart accounts, batch payouts and factories pay.
 */
import { Interface } from "ethers";
import type { HardhatNode } from "./hardhat-node.ts";
import { compileTestContracts } from "./solidity.ts";

/** Enough for a 50-address payout; given explicitly so a reverting call is mined, not refused by gas estimation. */
const GAS = 3_000_000;

export interface ValueRouter {
  /** Lower-case 0x address. */
  address: string;
  /** Each sends one transaction from `from` (default the first dev account) and returns its hash. */
  forward(to: string, wei: bigint, from?: string): Promise<string>;
  forwardThrough(hops: readonly string[], to: string, wei: bigint): Promise<string>;
  payout(tos: readonly string[], amounts: readonly bigint[]): Promise<string>;
  tryForward(to: string, wei: bigint): Promise<string>;
  forwardThenRevert(to: string, wei: bigint): Promise<string>;
  destroy(beneficiary: string, wei: bigint): Promise<string>;
  createDeposit(salt: string, wei: bigint): Promise<string>;
  /** The address `createDeposit(salt)` creates (CREATE2: known before the contract exists). */
  depositAddress(salt: string): Promise<string>;
  payTokens(token: string, tos: readonly string[], amounts: readonly bigint[]): Promise<string>;
  pullTokens(token: string, from: string, to: string, amount: bigint): Promise<string>;
}

export async function deployValueRouter(node: HardhatNode, deployer = 0): Promise<ValueRouter> {
  const { ValueRouter: compiled } = compileTestContracts("ValueRouter.sol");
  const abi = new Interface(compiled!.abi as string[]);
  const sender = node.accounts[deployer]!.address;
  const deployment = await node.rpc<string>("eth_sendTransaction", [
    { from: sender, data: compiled!.bytecode, gas: `0x${GAS.toString(16)}` },
  ]);
  const receipt = await node.rpc<{ contractAddress: string; status: string }>("eth_getTransactionReceipt", [deployment]);
  if (receipt.status !== "0x1") throw new Error(`the ValueRouter's deployment failed (${deployment})`);
  const address = receipt.contractAddress.toLowerCase();
  const send = (method: string, args: unknown[], wei = 0n, from = sender) =>
    node.rpc<string>("eth_sendTransaction", [
      { from, to: address, data: abi.encodeFunctionData(method, args), value: `0x${wei.toString(16)}`, gas: `0x${GAS.toString(16)}` },
    ]);
  return {
    address,
    forward: (to, wei, from) => send("forward", [to], wei, from),
    forwardThrough: (hops, to, wei) => send("forwardThrough", [hops, to], wei),
    payout: (tos, amounts) =>
      send(
        "payout",
        [tos, amounts],
        amounts.reduce((sum, amount) => sum + amount, 0n),
      ),
    tryForward: (to, wei) => send("tryForward", [to], wei),
    forwardThenRevert: (to, wei) => send("forwardThenRevert", [to], wei),
    destroy: (beneficiary, wei) => send("destroy", [beneficiary], wei),
    createDeposit: (salt, wei) => send("createDeposit", [salt], wei),
    async depositAddress(salt) {
      const answer = await node.rpc<string>("eth_call", [
        { to: address, data: abi.encodeFunctionData("depositAddress", [salt]) },
        "latest",
      ]);
      return (abi.decodeFunctionResult("depositAddress", answer)[0] as string).toLowerCase();
    },
    payTokens: (token, tos, amounts) => send("payTokens", [token, tos, amounts]),
    pullTokens: (token, from, to, amount) => send("pullTokens", [token, from, to, amount]),
  };
}
