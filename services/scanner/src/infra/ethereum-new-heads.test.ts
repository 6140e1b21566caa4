import { silentLogger } from "@chaingate/testing";
import { WebSocketServer } from "ws";
import { expect, test } from "vitest";
import type { Coin } from "@chaingate/contracts";
import { waitUntil } from "../testing/scanner-harness.ts";
import { subscribeEthereumNewHeads } from "./ethereum-new-heads.ts";

test("a node that refuses eth_subscribe leaves the channel down and is asked again with back-off; announcements only count once subscribed", async () => {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  let attempts = 0;
  server.on("connection", (socket) => {
    attempts++;
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as { id: number };
      // The first two refuse, as an endpoint without subscriptions does; the third accepts and announces.
      if (attempts < 3)
        return socket.send(
          JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "the method eth_subscribe does not exist" } }),
        );
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: "0x1" }));
      socket.send(
        JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0x1", result: { number: "0x5" } } }),
      );
    });
  });
  const statuses: boolean[] = [];
  let announced = 0;
  const observer = {
    announced: (_coin: Coin) => void announced++,
    status: (_coin: Coin, _channel: string, up: boolean) => void statuses.push(up),
  };
  const { port } = server.address() as { port: number };
  const channel = subscribeEthereumNewHeads({
    coin: "ETH",
    url: `ws://user:secret@127.0.0.1:${port}/`,
    observer,
    logger: silentLogger,
    reconnectFirstMs: 20,
  });
  try {
    expect(channel.name).toBe(`ws ws://127.0.0.1:${port}`);
    await waitUntil("the third attempt's subscription", async () => statuses.at(-1) === true);
    expect(attempts).toBe(3);
    expect(statuses).toEqual([false, true]);
    await waitUntil("the announcement", async () => announced === 1);
  } finally {
    await channel.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
