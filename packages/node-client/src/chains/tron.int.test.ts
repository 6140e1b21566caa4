/**
 * The shared client against the project's java-tron simulator: the HTTP API (JSON to /wallet/*
 * paths, errors as an `Error` member with HTTP 200) and the eth-compatible JSON-RPC at /jsonrpc.
 */
import { startTronDevnode, type TronDevnode } from "@chaingate/tron-devnode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeClient, type NodeClient } from "../create-node-client.ts";
import { tron } from "./tron.ts";

describe("createNodeClient(tron) against the Tron devnode", () => {
  let devnode: TronDevnode;
  let client: NodeClient;
  beforeAll(async () => {
    devnode = await startTronDevnode({ port: 0 });
    client = createNodeClient({ chain: tron, urls: [devnode.url] });
  });
  afterAll(async () => {
    await client?.close();
    await devnode?.close();
  });

  it("reads an account with a POST of JSON to its path, and the head block with a GET", async () => {
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

  it("throws the node's Error member as a refusal with the reason its message gives", async () => {
    const error = await client
      .request("/wallet/getaccount", { body: { address: "not-an-address", visible: true } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "trx_node_rpc_error", method: "/wallet/getaccount", reason: "invalid_argument" });
  });

  it("calls the eth-compatible JSON-RPC at /jsonrpc", async () => {
    const head = await client.request<{ block_header: { raw_data: { number: number } } }>("/wallet/getnowblock");
    expect(Number(await client.call<string>("eth_blockNumber"))).toBeGreaterThanOrEqual(head.block_header.raw_data.number);
  });
});
