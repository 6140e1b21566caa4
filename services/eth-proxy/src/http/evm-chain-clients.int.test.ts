/**
 * Client libraries against a configured EVM chain's prefix (issue #31), unmodified: a Hardhat node
 * answering Polygon's chain id, served at /api/v1/polygon/jsonrpc as an operator adds it. ethers'
 * JsonRpcProvider with its defaults detects the network through the proxy (chain 137, "matic"), and
 * viem's wallet client built for `polygon` (viem/chains) signs for chain 137, sends POL and waits for
 * the receipt; the same transaction signed for Ethereum mainnet is refused by Polygon's node (EIP-155
 * replay protection), the refusal reaching viem through the proxy.
 */
import { FetchRequest, JsonRpcProvider } from "ethers";
import { createPublicClient, createWalletClient, http, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet, polygon } from "viem/chains";
import { expect } from "vitest";
import { POLYGON_STACK_CHAIN, type EthStack } from "../testing/index.ts";
import { ethProxyTest as it } from "../testing/eth-proxy-fixtures.ts";

it.scoped({ ethStackSettings: { chain: POLYGON_STACK_CHAIN } });

const jsonrpcUrl = (stack: EthStack) => `${stack.url}/api/v1/polygon/jsonrpc`;

it("ethers' JsonRpcProvider with its defaults detects Polygon through the proxy and reads balances", async ({ ethStack: stack }) => {
  const request = new FetchRequest(jsonrpcUrl(stack));
  for (const [name, value] of Object.entries(stack.headers)) request.setHeader(name, value);
  const provider = new JsonRpcProvider(request);
  try {
    const network = await provider.getNetwork();
    expect([network.chainId, network.name]).toEqual([137n, "matic"]);
    const holder = stack.node.accounts[0]!.address;
    expect(await provider.getBalance(holder)).toBe(BigInt(await stack.node.rpc<string>("eth_getBalance", [holder, "latest"])));
  } finally {
    provider.destroy();
  }
});

it("viem's wallet client for polygon sends POL through the proxy and waits for its receipt; one signed for mainnet is refused by the node", async ({
  ethStack: stack,
}) => {
  const [payer, receiver] = stack.node.accounts;
  const account = privateKeyToAccount(payer!.privateKey as Hex);
  const transport = http(jsonrpcUrl(stack), { fetchOptions: { headers: stack.headers } });
  const client = createPublicClient({ chain: polygon, transport });
  const before = await client.getBalance({ address: receiver!.address as Address });
  const wallet = createWalletClient({ account, chain: polygon, transport });
  const hash = await wallet.sendTransaction({ to: receiver!.address as Address, value: parseEther("0.25") });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
  expect(await client.getBalance({ address: receiver!.address as Address })).toBe(before + parseEther("0.25"));

  const wrongChain = createWalletClient({ account, chain: mainnet, transport });
  const refused = await wrongChain.sendTransaction({ to: receiver!.address as Address, value: 1n }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ name: "TransactionExecutionError", details: expect.stringMatching(/chain/i) as string });
});
