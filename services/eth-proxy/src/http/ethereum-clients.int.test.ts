/**
 * Ethereum client libraries, unmodified, pointed at the proxy's /api/v1/eth/jsonrpc (with the
 * headers the gateway adds, set as a client sets X-API-Key) against Hardhat: viem with batching on (its default batch size is 1,000), ethers' JsonRpcProvider with its
 * defaults, web3.js, a viem wallet client sending ETH and the dev ERC-20, and viem and ethers
 * batching 200 `eth_call`s with distinct answers (whose array the proxy streams back chunk by
 * chunk). The node's own batch limit is set low here (ETH_RPC_MAX_BATCH=30) so a client's batch
 * reaches it in chunks.
 */
import { deployUsdtLikeToken, type DeployedToken } from "@chaingate/testing";
import { FetchRequest, JsonRpcProvider } from "ethers";
import { createPublicClient, createWalletClient, erc20Abi, http, parseEther, parseEventLogs, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { HttpProvider, Web3 } from "web3";
import { expect } from "vitest";
import type { EthStack } from "../testing/index.ts";
import { ethProxyTest } from "../testing/eth-proxy-fixtures.ts";

const NODE_BATCH = 30;

ethProxyTest.scoped({ ethStackSettings: { proxyEnv: { ETH_RPC_MAX_BATCH: String(NODE_BATCH) } } });
const it = ethProxyTest.extend<{ token: DeployedToken }>({
  /** A USDT-like ERC-20 deployed once for the file. */
  token: [async ({ ethStack }, use) => use(await deployUsdtLikeToken(ethStack.node)), { scope: "file" }],
});

/** The proxy's JSON-RPC URL. */
const jsonrpcUrl = (stack: EthStack) => `${stack.url}/api/v1/eth/jsonrpc`;

/** Distinct addresses: the Hardhat accounts, then made-up ones. */
const addresses = (stack: EthStack, count: number): Address[] =>
  Array.from({ length: count }, (_, i) => (stack.node.accounts[i]?.address ?? `0x${(i + 1).toString(16).padStart(40, "0")}`) as Address);

/** The calls of each batch the node received since `from`. */
const nodeBatchSizes = (stack: EthStack, from: number) =>
  stack.relay
    .bodies()
    .slice(from)
    .map((body) => JSON.parse(body) as unknown)
    .filter(Array.isArray)
    .map((batch) => batch.length);

/** `calls` reached the node in batches of at most its limit, most of them full: a client's batch was cut into chunks. */
const expectChunked = (sizes: number[], calls: number) => {
  expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(calls);
  expect(Math.max(...sizes)).toBe(NODE_BATCH);
  expect(sizes.filter((size) => size === NODE_BATCH).length).toBeGreaterThanOrEqual(Math.floor(calls / NODE_BATCH) - 1);
};

const publicClient = (stack: EthStack) =>
  createPublicClient({ chain: hardhat, transport: http(jsonrpcUrl(stack), { batch: true, fetchOptions: { headers: stack.headers } }) });

it("viem with batch: true: 100 concurrent reads in one batch, sent to the node in chunks, each answered", async ({ ethStack: stack }) => {
  const client = publicClient(stack);
  const targets = addresses(stack, 100);
  const relayed = stack.relay.bodies().length;
  const balances = await Promise.all(targets.map((address) => client.getBalance({ address })));
  const expected = await Promise.all(
    targets.map(async (address) => BigInt(await stack.node.rpc<string>("eth_getBalance", [address, "latest"]))),
  );
  expect(balances).toEqual(expected);
  expect(balances[0]).toBeGreaterThan(0n);
  expect(nodeBatchSizes(stack, relayed)).toEqual([30, 30, 30, 10]);
});

it("answers a batch of JSONRPC_MAX_BATCH (1,000) calls as one array in request order, and refuses 1,001 without contacting the node", async ({
  ethStack: stack,
}) => {
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "eth_getBalance", params: [addresses(stack, 40)[id % 40], "latest"] });
  const relayed = stack.relay.bodies().length;
  const full = await stack.request("/api/v1/eth/jsonrpc", {
    method: "POST",
    body: JSON.stringify(Array.from({ length: 1_000 }, (_, i) => call(i))),
  });
  expect(full.status).toBe(200);
  const answers = (await full.json()) as { id: number; result: string }[];
  expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
  expect(answers[41]!.result).toBe(await stack.node.rpc("eth_getBalance", [addresses(stack, 40)[1], "latest"]));
  expect(nodeBatchSizes(stack, relayed)).toEqual([...Array.from({ length: 33 }, () => 30), 10]);
  const sent = stack.relay.bodies().length;
  const over = await stack.request("/api/v1/eth/jsonrpc", {
    method: "POST",
    body: JSON.stringify(Array.from({ length: 1_001 }, (_, i) => call(i))),
  });
  expect(over.status).toBe(400);
  expect(await over.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining("1000") as string }, id: null });
  expect(stack.relay.bodies().length).toBe(sent);
});

it("viem and ethers batches of 200 distinct 4 KiB eth_call answers, streamed back in chunks of the node's limit, each call its own answer", async ({
  ethStack: stack,
}) => {
  // Code that answers each call with its own call data (CALLDATACOPY, RETURN), put at ECHO by a state override.
  const ECHO = "0x00000000000000000000000000000000ec400000" as Address;
  const ECHO_CODE: Hex = "0x366000600037366000f3";
  const override = { [ECHO]: { code: ECHO_CODE } };
  const data = Array.from({ length: 200 }, (_, i): Hex => `0x${i.toString(16).padStart(64, "0")}${"ab".repeat(4_064)}`);

  const viem = createPublicClient({
    chain: hardhat,
    transport: http(jsonrpcUrl(stack), { batch: { batchSize: 1_000, wait: 20 }, fetchOptions: { headers: stack.headers } }),
  });
  let relayed = stack.relay.bodies().length;
  const viemAnswers = await Promise.all(
    data.map((input) => viem.call({ to: ECHO, data: input, stateOverride: [{ address: ECHO, code: ECHO_CODE }] })),
  );
  expect(viemAnswers.map((answer) => answer.data)).toEqual(data);
  expectChunked(nodeBatchSizes(stack, relayed), data.length);

  const request = new FetchRequest(jsonrpcUrl(stack));
  for (const [name, value] of Object.entries(stack.headers)) request.setHeader(name, value);
  const provider = new JsonRpcProvider(request, Number(stack.node.chainId), { staticNetwork: true, batchMaxCount: 1_000 });
  try {
    relayed = stack.relay.bodies().length;
    const ethersAnswers = await Promise.all(
      data.map((input) => provider.send("eth_call", [{ to: ECHO, data: input }, "latest", override])),
    );
    expect(ethersAnswers).toEqual(data);
    expectChunked(nodeBatchSizes(stack, relayed), data.length);
  } finally {
    provider.destroy();
  }
});

it("ethers' JsonRpcProvider with its defaults: network, reads batched by the provider", async ({ ethStack: stack }) => {
  const request = new FetchRequest(jsonrpcUrl(stack));
  for (const [name, value] of Object.entries(stack.headers)) request.setHeader(name, value);
  const provider = new JsonRpcProvider(request);
  try {
    expect((await provider.getNetwork()).chainId).toBe(31337n);
    const targets = addresses(stack, 50);
    const balances = await Promise.all(targets.map((address) => provider.getBalance(address)));
    expect(balances[0]).toBe(BigInt(await stack.node.rpc<string>("eth_getBalance", [targets[0], "latest"])));
    expect(await provider.getBlockNumber()).toBe(Number(await stack.node.rpc<string>("eth_blockNumber")));
  } finally {
    provider.destroy();
  }
});

it("web3.js: reads and a batch request", async ({ ethStack: stack }) => {
  const web3 = new Web3(new HttpProvider(jsonrpcUrl(stack), { providerOptions: { headers: stack.headers } }));
  expect(await web3.eth.getChainId()).toBe(31337n);
  const [first] = addresses(stack, 1);
  expect(await web3.eth.getBalance(first!)).toBe(BigInt(await stack.node.rpc<string>("eth_getBalance", [first, "latest"])));
  // Over the node's batch limit: it reaches the node in two chunks.
  const batch = new web3.BatchRequest();
  const targets = addresses(stack, 40);
  const pending = targets.map((address) => batch.add({ method: "eth_getBalance", params: [address, "latest"] }));
  const chain = batch.add({ method: "eth_chainId", params: [] });
  const relayed = stack.relay.bodies().length;
  await batch.execute();
  expect(await chain).toBe("0x7a69");
  expect(await Promise.all(pending)).toEqual(
    await Promise.all(targets.map((address) => stack.node.rpc("eth_getBalance", [address, "latest"]))),
  );
  expect(nodeBatchSizes(stack, relayed)).toEqual([30, 11]);
});

it("a viem wallet client sends ETH and the ERC-20, waits for the receipts, reads the token and finds its Transfer log", async ({
  ethStack: stack,
  token,
}) => {
  const [deployer, receiver] = stack.node.accounts;
  const account = privateKeyToAccount(deployer!.privateKey as Hex);
  const transport = http(jsonrpcUrl(stack), { batch: true, fetchOptions: { headers: stack.headers } });
  const wallet = createWalletClient({ account, chain: hardhat, transport });
  const client = publicClient(stack);

  const ethBefore = await client.getBalance({ address: receiver!.address as Address });
  const payment = await wallet.sendTransaction({ to: receiver!.address as Address, value: parseEther("1.5") });
  expect((await client.waitForTransactionReceipt({ hash: payment })).status).toBe("success");
  expect(await client.getBalance({ address: receiver!.address as Address })).toBe(ethBefore + parseEther("1.5"));

  const tokenAddress = token.address as Address;
  expect(await client.readContract({ address: tokenAddress, abi: erc20Abi, functionName: "decimals" })).toBe(6);
  const transfer = await wallet.writeContract({
    address: tokenAddress,
    abi: erc20Abi,
    functionName: "transfer",
    args: [receiver!.address as Address, 12_500_000n],
  });
  const receipt = await client.waitForTransactionReceipt({ hash: transfer });
  expect(receipt.status).toBe("success");
  expect(
    await client.readContract({ address: tokenAddress, abi: erc20Abi, functionName: "balanceOf", args: [receiver!.address as Address] }),
  ).toBe(12_500_000n);
  expect(await token.balanceOf(receiver!.address)).toBe(12_500_000n);

  const logs = await client.getLogs({
    address: tokenAddress,
    event: erc20Abi.find((item) => item.type === "event" && item.name === "Transfer")!,
    fromBlock: receipt.blockNumber,
    toBlock: receipt.blockNumber,
  });
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({ transactionHash: transfer, args: { from: account.address, to: receiver!.address, value: 12_500_000n } });
  expect(parseEventLogs({ abi: erc20Abi, logs: receipt.logs })[0]).toMatchObject({ eventName: "Transfer" });
});
