/**
 * The shared client against the project's java-tron simulator: the HTTP API (JSON to /wallet/*
 * paths, errors as an `Error` member with HTTP 200) and the eth-compatible JSON-RPC at /jsonrpc.
 */
import { integrationTest } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import { createNodeClient } from "../create-node-client.ts";
import type { NodeClient } from "../node-client.ts";
import { tron } from "./tron.ts";

const it = integrationTest.extend<{ tronNodeClient: NodeClient }>({
  /** A client of the file's Tron simulator. */
  tronNodeClient: [
    async ({ tronDevnode }, use) => {
      const client = createNodeClient({ chain: tron, urls: [tronDevnode.url] });
      try {
        await use(client);
      } finally {
        await client.close();
      }
    },
    { scope: "file" },
  ],
});

describe("createNodeClient(tron) against the Tron devnode", () => {
  it("reads an account with a POST of JSON to its path, and the head block with a GET", async ({
    tronDevnode: devnode,
    tronNodeClient: client,
  }) => {
    const [holder] = devnode.genesis.accounts;
    const account = await client.request<{ address: string; balance: number }>("/wallet/getaccount", {
      body: { address: holder!.base58, visible: true },
    });
    expect(account).toEqual(
      await (
        await fetch(`${devnode.url}/wallet/getaccount`, {
          method: "POST",
          body: JSON.stringify({ address: holder!.base58, visible: true }),
        })
      ).json(),
    );
    expect(account.balance).toBeGreaterThan(0);
    const head = await client.request<{ block_header: { raw_data: { number: number } } }>("/wallet/getnowblock");
    expect(head.block_header.raw_data.number).toBeGreaterThanOrEqual(0);
  });

  it("throws the node's Error member as a refusal with the reason its message gives", async ({ tronNodeClient: client }) => {
    const error = await client
      .request("/wallet/getaccount", { body: { address: "not-an-address", visible: true } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "trx_node_rpc_error", method: "/wallet/getaccount", reason: "invalid_argument" });
  });

  it("calls the eth-compatible JSON-RPC at /jsonrpc", async ({ tronNodeClient: client }) => {
    const head = await client.request<{ block_header: { raw_data: { number: number } } }>("/wallet/getnowblock");
    expect(Number(await client.call<string>("eth_blockNumber"))).toBeGreaterThanOrEqual(head.block_header.raw_data.number);
  });
});
