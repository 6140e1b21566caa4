/**
 * The newHeads channel alone against real Hardhat, through a TCP relay the test freezes: a socket
 * that stays open but goes silent is noticed by its unanswered ping, closed, and reopened once the
 * node answers again; announcements then flow as before.
 */
import { silentLogger } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { expect } from "vitest";
import type { Coin } from "@chaingate/contracts";
import { startTcpRelay, type TcpRelay } from "../testing/tcp-relay.ts";
import { waitUntil } from "../testing/scanner-harness.ts";
import { subscribeEthereumNewHeads } from "./ethereum-new-heads.ts";

/** A TCP relay in front of the file's Hardhat node, stopped after the file. */
const test = integrationTest.extend<{ newHeadsRelay: TcpRelay }>({
  newHeadsRelay: [
    async ({ hardhat }, use) => {
      const relay = await startTcpRelay(hardhat.port);
      try {
        await use(relay);
      } finally {
        await relay.stop();
      }
    },
    { scope: "file" },
  ],
});

test("a silent socket is detected by its ping, reopened with back-off, and announces again", async ({
  hardhat: node,
  newHeadsRelay: relay,
}) => {
  const statuses: boolean[] = [];
  let announced = 0;
  const observer = {
    announced: (_coin: Coin) => void announced++,
    status: (_coin: Coin, _channel: string, up: boolean) => void statuses.push(up),
  };
  const channel = subscribeEthereumNewHeads({
    coin: "ETH",
    url: `ws://127.0.0.1:${relay.port}`,
    observer,
    logger: silentLogger,
    pingEveryMs: 200,
    reconnectFirstMs: 50,
  });
  try {
    await waitUntil("the subscription", async () => statuses.at(-1) === true);
    await node.rpc("evm_mine");
    await waitUntil("an announcement", async () => announced === 1);

    relay.freeze();
    await waitUntil("the silent socket noticed", async () => statuses.at(-1) === false, 5_000);
    await node.rpc("evm_mine");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(announced).toBe(1);

    await relay.start();
    await waitUntil("the subscription again", async () => statuses.at(-1) === true, 10_000);
    await node.rpc("evm_mine");
    await waitUntil("announcements again", async () => announced === 2);
    expect(statuses).toEqual([false, true, false, true]);
  } finally {
    await channel.close();
  }
});
