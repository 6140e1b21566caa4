/**
 * The ZMQ channel alone against a zeromq publisher sending bitcoind's `hashblock` messages, through
 * a TCP relay the test freezes: a peer that goes silent without closing TCP is noticed by the ZMTP
 * heartbeat, and the channel comes back (and announces) once the peer answers again.
 */
import { freePort, silentLogger } from "@chaingate/testing";
import { Publisher, Subscriber } from "zeromq";
import { expect, test as base } from "vitest";
import type { Coin } from "@chaingate/contracts";
import { startTcpRelay, type TcpRelay } from "../testing/tcp-relay.ts";
import { waitUntil } from "../testing/scanner-harness.ts";
import { subscribeBitcoinZmq } from "./bitcoin-zmq-announcements.ts";

/** A zeromq publisher behind a TCP relay; `hashblock` publishes the next announcement (one hash, counted). */
const test = base.extend<{ zmqRelay: { relay: TcpRelay; hashblock: () => Promise<void> } }>({
  zmqRelay: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const port = await freePort();
      const publisher = new Publisher();
      let relay: TcpRelay | undefined;
      try {
        await publisher.bind(`tcp://127.0.0.1:${port}`);
        relay = await startTcpRelay(port);
        let sequence = 0;
        const hashblock = () => {
          const number = Buffer.alloc(4);
          number.writeUInt32LE(sequence++);
          return publisher.send(["hashblock", Buffer.alloc(32, 7), number]);
        };
        await use({ relay, hashblock });
      } finally {
        await relay?.stop();
        publisher.close();
      }
    },
    { scope: "file" },
  ],
});

test("a silent publisher is noticed by the heartbeat; the channel comes back and announces again", async ({
  zmqRelay: { relay, hashblock },
}) => {
  const statuses: boolean[] = [];
  let announced = 0;
  const observer = {
    announced: (_coin: Coin) => void announced++,
    status: (_coin: Coin, _channel: string, up: boolean) => void statuses.push(up),
  };
  const channel = subscribeBitcoinZmq({
    coin: "BTC",
    url: `tcp://127.0.0.1:${relay.port}`,
    observer,
    logger: silentLogger,
    Subscriber,
    heartbeatIntervalMs: 100,
    heartbeatTimeoutMs: 400,
  });
  try {
    // The subscription reaches the publisher a moment after the handshake: publish until heard.
    await waitUntil("an announcement", async () => (await hashblock(), announced > 0));
    expect(statuses).toEqual([false, true]);

    relay.freeze();
    await waitUntil("the silent peer noticed", async () => statuses.at(-1) === false, 5_000);
    const before = announced;
    await hashblock();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(announced).toBe(before);

    await relay.start();
    await waitUntil("the channel back", async () => statuses.at(-1) === true, 10_000);
    await waitUntil("announcements again", async () => (await hashblock(), announced > before));
    expect(statuses).toEqual([false, true, false, true]);
  } finally {
    await channel.close();
  }
});
