import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { integrationTest } from "./fixtures/integration-test.ts";
import { LitecoindRpcError, startLitecoindRegtest } from "./litecoind-regtest.ts";

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The temporary node is the file's `litecoind`; a persistent datadir is a temporary directory, removed after the file. */
const it = integrationTest.extend<{ persistentDatadir: string }>({
  persistentDatadir: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const datadir = await mkdtemp(path.join(os.tmpdir(), "chaingate-litecoind-persistent-"));
      try {
        await use(datadir);
      } finally {
        await rm(datadir, { recursive: true, force: true });
      }
    },
    { scope: "file" },
  ],
});

describe("startLitecoindRegtest (temporary node)", () => {
  it("answers JSON-RPC on rpcUrl with the given credentials, on a regtest chain with txindex", async ({ litecoind: node }) => {
    const info = await node.rpc<{ chain: string; blocks: number }>("getblockchaininfo");
    expect(info.chain).toBe("regtest");
    const response = await fetch(node.rpcUrl, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${node.rpcUser}:${node.rpcPassword}`).toString("base64")}` },
      body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "getindexinfo", params: [] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: Record<string, unknown> }).result).toHaveProperty("txindex");
  });

  it("refuses wrong credentials with 401", async ({ litecoind: node }) => {
    const response = await fetch(node.rpcUrl, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${node.rpcUser}:wrong`).toString("base64")}` },
      body: JSON.stringify({ id: 1, method: "getblockcount", params: [] }),
    });
    expect(response.status).toBe(401);
  });

  it("surfaces node errors with their code", async ({ litecoind: node }) => {
    await expect(node.rpc("getblockhash", [10_000])).rejects.toMatchObject({ name: "LitecoindRpcError", code: -8 });
    await expect(node.rpc("getblockhash", [10_000])).rejects.toBeInstanceOf(LitecoindRpcError);
  });

  it("mines blocks to a wallet address or to a given address", async ({ litecoind: node }) => {
    const before = await node.rpc<number>("getblockcount");
    const hashes = await node.mine(3);
    expect(hashes).toHaveLength(3);
    expect(await node.rpc<number>("getblockcount")).toBe(before + 3);
    expect(await node.rpc<string>("getbestblockhash")).toBe(hashes[2]);

    const external = "rltc1qcr8te4kr609gcawutmrza0j4xv80jy8z8dz7lc";
    const [hash] = await node.mine(1, external);
    const block = await node.rpc<{ tx: Array<{ vout: Array<{ scriptPubKey: { address?: string; addresses?: string[] } }> }> }>("getblock", [
      hash,
      2,
    ]);
    const coinbaseOutput = block.tx[0]!.vout[0]!.scriptPubKey;
    expect(coinbaseOutput.address ?? coinbaseOutput.addresses?.[0]).toBe(external);
  });

  it("funds an outside address: the payment is in the mempool, then confirmed by mining", async ({ litecoind: node }) => {
    const address = "rltc1qnjg0jd8228aq7egyzacy8cys3knf9xvr0pw77v";
    // An address the node's wallet does not own, like an issued watch-only address.
    const valid = await node.rpc<{ isvalid: boolean }>("validateaddress", [address]);
    expect(valid.isvalid).toBe(true);
    const txid = await node.fundAddress(address, "1.25");
    expect(await node.rpc<string[]>("getrawmempool")).toContain(txid);
    const [blockHash] = await node.mine(1);
    const tx = await node.rpc<{
      blockhash: string;
      vout: Array<{ value: number; scriptPubKey: { address?: string; addresses?: string[] } }>;
    }>("getrawtransaction", [txid, true]);
    expect(tx.blockhash).toBe(blockHash);
    const paid = tx.vout.find((out) => (out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0]) === address);
    expect(paid?.value).toBe(1.25);

    // More than the wallet holds after maturity (one 50-coin reward): the helper mines until it can pay.
    const bigTxid = await node.fundAddress(address, 120);
    await node.mine(1);
    const big = await node.rpc<{ confirmations: number }>("getrawtransaction", [bigTxid, true]);
    expect(big.confirmations).toBe(1);
  });

  it("stops the node, frees the port and removes the temporary datadir", async () => {
    const throwaway = await startLitecoindRegtest();
    expect(await isListening(throwaway.rpcPort)).toBe(true);
    await throwaway.stop();
    expect(await isListening(throwaway.rpcPort)).toBe(false);
    expect(existsSync(throwaway.datadir)).toBe(false);
    await throwaway.stop(); // idempotent
  });
});

describe("startLitecoindRegtest (persistent datadir, fixed port)", () => {
  it("keeps chain and wallet across restarts, and keeps the datadir", async ({ persistentDatadir: datadir }) => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const options = { datadir, rpcPort: port, rpcUser: "chaingate", rpcPassword: "chaingate", walletName: "dev" };
    const first = await startLitecoindRegtest(options);
    expect(first.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    await first.mine(5);
    const walletAddress = await first.walletRpc<string>("getnewaddress");
    await first.stop();
    expect(existsSync(path.join(datadir, "regtest"))).toBe(true);

    const second = await startLitecoindRegtest(options);
    try {
      expect(await second.rpc<number>("getblockcount")).toBe(5);
      const owned = await second.walletRpc<{ ismine: boolean }>("getaddressinfo", [walletAddress]);
      expect(owned.ismine).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it("fails fast with the node's reason when the port is taken", async () => {
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as net.AddressInfo).port)),
    );
    try {
      await expect(startLitecoindRegtest({ rpcPort: port, startTimeoutMs: 20_000 })).rejects.toThrow(/litecoind/);
    } finally {
      blocker.close();
    }
  });
});
