/**
 * The conformance of the REST endpoints of /api/v1/eth at the proxy's internal edge, against a real
 * Hardhat Network node: nonces around a send, gas estimates, sends from the node's key store and
 * signed elsewhere, reads of what was sent, not-found records, and the node down, unconfigured or
 * failing over. Run unchanged for Ethereum and for each configured EVM chain's prefix (issue 31):
 * each test file runs it for the chain of its stack (http/rest-endpoints*.int.test.ts). Imports
 * vitest: not re-exported from testing/index.ts.
 */
import http from "node:http";
import { Transaction, Wallet, parseEther, toQuantity } from "ethers";
import { describe, expect } from "vitest";
import { freePort } from "@chaingate/testing";
import type { EthStack, EthStackChain } from "./start-eth-stack.ts";
import { ethProxyTest } from "./eth-proxy-fixtures.ts";

/** A plain transfer uses exactly 21000 gas. */
const TRANSFER_GAS = "0x5208";

const it = ethProxyTest;

/** The REST calls of a test, at the internal edge of the file's stack. */
function restClient(stack: EthStack) {
  const get = async (path: string) => {
    const response = await stack.request(path);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { details?: { reason: string } } };
  };
  const post = async (path: string, body: unknown) => {
    const response = await stack.request(path, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const nonce = async (address: string, block: string) =>
    (await get(`${stack.base}/account/${address}/nonce?block=${block}`)).body.transactionCount;
  return { get, post, nonce };
}

function healthKeyStoreAndNonces(chain: EthStackChain): void {
  describe(`eth-proxy REST endpoints (Hardhat, /api/v1/${chain.prefix}): health, key store and nonces`, () => {
    it("reports the node's latest block number as health", async ({ ethStack: stack }) => {
      const { get } = restClient(stack);
      await stack.node.rpc("hardhat_mine", ["0x3"]);
      const { status, body } = await get(`${stack.base}/health`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: "ok", blockNumber: await stack.node.rpc("eth_blockNumber") });
      expect(Date.parse(String(body.time))).toBeGreaterThan(Date.now() - 60_000);
    });

    it("lists the node's key store: Hardhat's 20 dev accounts", async ({ ethStack: stack }) => {
      const { get } = restClient(stack);
      const { status, body } = await get(`${stack.base}/account`);
      expect(status).toBe(200);
      expect((body as unknown as string[]).map((a) => a.toLowerCase())).toEqual(stack.node.accounts.map((a) => a.address.toLowerCase()));
    });

    it("counts a send in the pending nonce at once and in the latest nonce once mined", async ({ ethStack: stack }) => {
      const { get, post, nonce } = restClient(stack);
      const [from, to] = [stack.node.accounts[1]!.address, stack.node.accounts[2]!.address];
      const before = { latest: await nonce(from, "latest"), pending: await nonce(from, "pending") };
      expect(before.pending).toBe(before.latest);
      await stack.node.rpc("evm_setAutomine", [false]);
      try {
        const sent = await post(`${stack.base}/account/send`, { transaction: { from, to, value: toQuantity(parseEther("1")) } });
        expect(sent.status).toBe(200);
        expect(sent.body.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(await nonce(from, "pending")).toBe(toQuantity(BigInt(before.pending as string) + 1n));
        expect(await nonce(from, "latest")).toBe(before.latest);
        // Not mined yet: its receipt does not exist, which is not an outage.
        const receipt = await get(`${stack.base}/transactions/${String(sent.body.transactionHash)}/receipt`);
        expect(receipt).toEqual({ status: 500, body: { error: stack.nodeFailure, details: { reason: "not_found" } } });
        await stack.node.rpc("evm_mine");
        expect(await nonce(from, "latest")).toBe(toQuantity(BigInt(before.latest as string) + 1n));
        expect((await get(`${stack.base}/transactions/${String(sent.body.transactionHash)}/receipt`)).body).toMatchObject({
          status: "0x1",
          to: to.toLowerCase(),
        });
      } finally {
        await stack.node.rpc("evm_setAutomine", [true]);
      }
    });

    it("answers the nonce at a block as {address, block, transactionCount} and refuses a bad block or address", async ({
      ethStack: stack,
    }) => {
      const { get } = restClient(stack);
      const address = stack.node.accounts[0]!.address;
      expect(await get(`${stack.base}/account/${address}/nonce?block=0x0`)).toEqual({
        status: 200,
        body: { address, block: "0x0", transactionCount: "0x0" },
      });
      expect((await get(`${stack.base}/account/${address}/nonce`)).body.block).toBe("latest");
      for (const query of ["block=0x01", "block=12", "block=newest", "block=", "block=latest&block=pending", "block[]=latest"]) {
        const { status, body } = await get(`${stack.base}/account/${address}/nonce?${query}`);
        expect({ query, status }).toEqual({ query, status: 400 });
        expect(body.error).toMatch(/block/);
      }
      expect((await get(`${stack.base}/account/0x1234/nonce`)).status).toBe(400);
    });
  });
}

function gasEstimatesAndSends(chain: EthStackChain): void {
  describe(`eth-proxy REST endpoints (Hardhat, /api/v1/${chain.prefix}): gas estimates and sends`, () => {
    it("passes the node's estimate for a plain transfer through (at least 0x5208) and validates the transaction object", async ({
      ethStack: stack,
    }) => {
      const { post } = restClient(stack);
      const [from, to] = [stack.node.accounts[3]!.address, stack.node.accounts[4]!.address];
      const direct = await stack.node.rpc<string>("eth_estimateGas", [{ from, to, value: "0x1" }, "latest"]);
      // Hardhat 2 answers 0x5209 (its binary search stops one above the floor); geth answers 0x5208.
      expect(BigInt(direct)).toBeGreaterThanOrEqual(BigInt(TRANSFER_GAS));
      expect(await post(`${stack.base}/account/estimate-gas`, { transaction: { from, to, value: "0x1" } })).toEqual({
        status: 200,
        body: { gas: direct },
      });
      expect(await post(`${stack.base}/account/estimate-gas`, { transaction: { from, to }, block: "pending" })).toEqual({
        status: 200,
        body: { gas: direct },
      });
      // The spec's 422 {error} naming transaction, with the {message, errors} of every other 422.
      for (const path of [`${stack.base}/account/estimate-gas`, `${stack.base}/account/send`]) {
        const missing = await post(path, {});
        expect(missing).toEqual({
          status: 422,
          body: {
            error: "The transaction field is required.",
            message: "The transaction field is required.",
            errors: { transaction: ["The transaction field is required."] },
          },
        });
        for (const transaction of ["0x", [], 5, null]) {
          const wrong = await post(path, { transaction });
          expect(wrong).toEqual({
            status: 422,
            body: {
              error: "The transaction field must be an object.",
              message: "The transaction field must be an object.",
              errors: { transaction: ["The transaction field must be an object."] },
            },
          });
        }
      }
      for (const [member, value] of [
        ["value", "12"],
        ["value", "0x01"],
        ["to", "0x12"],
        ["data", "0xabc"],
        ["gas", 21000],
      ] as const) {
        const bad = await post(`${stack.base}/account/estimate-gas`, { transaction: { from, to, [member]: value } });
        expect({ member, status: bad.status, errors: Object.keys(bad.body.errors as object) }).toEqual({
          member,
          status: 422,
          errors: [`transaction.${member}`],
        });
      }
      expect((await post(`${stack.base}/account/estimate-gas`, { transaction: { from, to, chainId: "0x1" } })).status).toBe(422);
      expect((await post(`${stack.base}/account/estimate-gas`, { transaction: { from, to }, block: "tomorrow" })).status).toBe(422);
    });

    it("answers a node's refusal to estimate or to send as a 500 with the node's code", async ({ ethStack: stack }) => {
      const { post } = restClient(stack);
      // A deployment whose code is the INVALID opcode: the node cannot estimate it.
      const refused = await post(`${stack.base}/account/estimate-gas`, {
        transaction: { from: stack.node.accounts[0]!.address, data: "0xfe" },
      });
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({
        error: stack.nodeFailure,
        details: { reason: "node_error", node_code: expect.any(Number) as number },
      });
      // An account outside the node's key store: what every production node answers to account/send.
      const stranger = Wallet.createRandom().address;
      const send = await post(`${stack.base}/account/send`, { transaction: { from: stranger, to: stranger, value: "0x1" } });
      expect(send.status).toBe(500);
      expect(send.body).toMatchObject({
        error: stack.nodeFailure,
        details: { reason: "node_error", node_message: expect.stringMatching(/unknown account/i) as string },
      });
    });
  });
}

function readsOfWhatWasSent(chain: EthStackChain): void {
  describe(`eth-proxy REST endpoints (Hardhat, /api/v1/${chain.prefix}): reads of what was sent`, () => {
    it("broadcasts an ethers-signed transaction and reads it back as transaction, receipt, block and balance", async ({
      ethStack: stack,
    }) => {
      const { get, post, nonce } = restClient(stack);
      const wallet = new Wallet(stack.node.accounts[5]!.privateKey);
      const to = Wallet.createRandom().address;
      const value = parseEther("0.25");
      const gasPrice = (await get(`${stack.base}/gas-price`)).body.gasPrice as string;
      expect(gasPrice).toBe(await stack.node.rpc("eth_gasPrice"));
      const signed = await wallet.signTransaction({
        type: 2,
        chainId: stack.node.chainId,
        nonce: Number(await nonce(wallet.address, "pending")),
        to,
        value,
        gasLimit: BigInt(
          (await post(`${stack.base}/account/estimate-gas`, { transaction: { from: wallet.address, to, value: toQuantity(value) } })).body
            .gas as string,
        ),
        maxFeePerGas: BigInt(gasPrice) * 2n,
        maxPriorityFeePerGas: 1n,
      });
      const before = await stack.node.rpc<string>("eth_blockNumber");
      const sent = await post(`${stack.base}/transactions/send-raw`, { hex: signed });
      expect(sent).toEqual({ status: 200, body: { transactionHash: Transaction.from(signed).hash } });
      const hash = sent.body.transactionHash as string;

      const transaction = await get(`${stack.base}/transactions/${hash}`);
      expect(transaction.status).toBe(200);
      expect(transaction.body).toMatchObject({ hash, from: wallet.address.toLowerCase(), to: to.toLowerCase(), value: toQuantity(value) });
      const receipt = await get(`${stack.base}/transactions/${hash}/receipt`);
      expect(receipt.body).toMatchObject({ transactionHash: hash, status: "0x1", gasUsed: TRANSFER_GAS });
      const blockNumber = receipt.body.blockNumber as string;

      const withHashes = await get(`${stack.base}/block/${blockNumber}`);
      expect(withHashes.body).toMatchObject({ number: blockNumber, transactions: [hash] });
      const full = await get(`${stack.base}/block/${BigInt(blockNumber).toString()}?fullTransactions=true`);
      expect((full.body.transactions as Array<{ hash: string; value: string }>)[0]).toMatchObject({ hash, value: toQuantity(value) });
      const byHash = await get(`${stack.base}/block/hash/${String(withHashes.body.hash)}?fullTransactions=false`);
      expect(byHash.body).toEqual(withHashes.body);
      expect((await get(`${stack.base}/block/latest`)).body.number).toBe(await stack.node.rpc("eth_blockNumber"));

      expect((await get(`${stack.base}/account/${to}/balance?block=${before}`)).body).toEqual({
        address: to,
        block: before,
        balance: "0x0",
      });
      expect((await get(`${stack.base}/account/${to}/balance`)).body.balance).toBe(toQuantity(value));
    });

    it("answers what does not exist as not_found, and a malformed hash or block as 400 without a node call", async ({
      ethStack: stack,
    }) => {
      const { get } = restClient(stack);
      const unknown = `0x${"ab".repeat(32)}`;
      for (const path of [
        `${stack.base}/transactions/${unknown}`,
        `${stack.base}/transactions/${unknown}/receipt`,
        `${stack.base}/block/hash/${unknown}`,
        `${stack.base}/block/0xffffff`,
      ]) {
        expect({ path, ...(await get(path)) }).toEqual({
          path,
          status: 500,
          body: { error: stack.nodeFailure, details: { reason: "not_found" } },
        });
      }
      const relayed = stack.relay.bodies().length;
      for (const path of [
        `${stack.base}/transactions/0xabc`,
        `${stack.base}/block/hash/xyz`,
        `${stack.base}/block/next`,
        `${stack.base}/block/latest?fullTransactions=yes`,
        `${stack.base}/block/latest?fullTransactions[]=true`,
      ]) {
        expect({ path, status: (await get(path)).status }).toEqual({ path, status: 400 });
      }
      expect(stack.relay.bodies().length).toBe(relayed);
    });

    it("answers the fee history of recent blocks with the requested percentiles", async ({ ethStack: stack }) => {
      const { get } = restClient(stack);
      const { status, body } = await get(`${stack.base}/fee-history?blockCount=2&newestBlock=latest&rewardPercentiles=25,75`);
      expect(status).toBe(200);
      expect(body.baseFeePerGas).toHaveLength(3);
      expect(body.reward).toHaveLength(2);
      expect((body.reward as string[][])[0]).toHaveLength(2);
      for (const query of [
        "blockCount=0",
        "blockCount=1025",
        "rewardPercentiles=75,25",
        "rewardPercentiles=101",
        "newestBlock=soon",
        "blockCount=1&blockCount=2",
      ]) {
        expect({ query, status: (await get(`${stack.base}/fee-history?${query}`)).status }).toEqual({ query, status: 400 });
      }
    });
  });
}

function nodeDownUnconfiguredOrFailingOver(chain: EthStackChain): void {
  describe(`eth-proxy REST endpoints (Hardhat, /api/v1/${chain.prefix}): the node down, unconfigured or failing over`, () => {
    it("answers the documented 500s when the node is not configured or down, and fails over to a second node", async ({
      ethStack: stack,
    }) => {
      const dead = `http://127.0.0.1:${await freePort()}`;
      const answers = async (env: Record<string, string | undefined>) => {
        const proxy = await stack.startProxy(env);
        const health = await fetch(`${proxy.url}${stack.base}/health`);
        const nonceAnswer = await fetch(`${proxy.url}${stack.base}/account/${stack.node.accounts[0]!.address}/nonce`);
        const rpc = await fetch(`${proxy.url}${stack.base}/jsonrpc`, {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "eth_chainId" }),
        });
        return {
          health: [health.status, await health.json()],
          nonce: [nonceAnswer.status, await nonceAnswer.json()],
          jsonrpc: [rpc.status, await rpc.json()],
        };
      };
      expect(await answers(stack.nodeSettings([]))).toEqual({
        health: [500, { status: "error", message: stack.nodeFailure }],
        nonce: [500, { error: stack.nodeFailure, details: { reason: "not_configured" } }],
        jsonrpc: [500, { error: { code: -32603, message: expect.any(String) as string }, id: 9 }],
      });
      expect(await answers(stack.nodeSettings([dead]))).toEqual({
        health: [500, { status: "error", message: stack.nodeFailure }],
        nonce: [500, { error: stack.nodeFailure, details: { reason: "node_unreachable" } }],
        jsonrpc: [502, { error: { code: -32603, message: stack.nodeFailure }, id: 9 }],
      });
      const failover = await answers(stack.nodeSettings([dead, stack.node.url]));
      expect(failover.health[0]).toBe(200);
      expect(failover.nonce[0]).toBe(200);
      expect(failover.jsonrpc).toEqual([200, { jsonrpc: "2.0", id: 9, result: toQuantity(stack.node.chainId) }]);
    });

    // The client's cancellation, the same for every chain: a configured chain's node is asked its
    // chain id before it serves, which a hung node never answers.
    it.skipIf(chain.prefix !== "eth").for([
      ["after the node began the block", '{"jsonrpc":"2.0","id":1,"result":{"transactions":['],
      ["while the node has sent only its headers", ""],
    ])("cancels the node call of a client that disconnects %s", async ([_when, opening], { ethStack: stack }) => {
      let nodeSawClose = false;
      let calls = 0;
      // A node that takes its time over a large block.
      const hung = http.createServer((request, response) => {
        calls++;
        request.resume();
        response.writeHead(200, { "content-type": "application/json" });
        response.flushHeaders();
        if (opening) response.write(opening);
        response.on("close", () => (nodeSawClose = true));
      });
      await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
      try {
        const proxy = await stack.startProxy(stack.nodeSettings([`http://127.0.0.1:${(hung.address() as { port: number }).port}`]));
        const client = new AbortController();
        const pending = fetch(`${proxy.url}${stack.base}/block/latest?fullTransactions=true`, { signal: client.signal }).then((response) =>
          response.text(),
        );
        await expect.poll(() => calls, { timeout: 5_000 }).toBe(1);
        client.abort();
        await expect(pending).rejects.toThrow();
        // The proxy let go of the node's connection: the call was cancelled, not left to time out.
        await expect.poll(() => nodeSawClose, { timeout: 5_000 }).toBe(true);
      } finally {
        hung.closeAllConnections();
        await new Promise((resolve) => hung.close(resolve));
      }
    });
  });
}

/** Every REST conformance test, for the chain of the file's stack (its `ethStackSettings`). */
export function restEndpointsConformance(chain: EthStackChain): void {
  healthKeyStoreAndNonces(chain);
  gasEstimatesAndSends(chain);
  readsOfWhatWasSent(chain);
  nodeDownUnconfiguredOrFailingOver(chain);
}
