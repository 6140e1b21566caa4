/**
 * Replicated streams on a real three-server JetStream cluster (nats-servers of the test's own on
 * loopback): the bus creates its streams with `streamReplicas` copies, connects through the
 * comma-separated server list, and keeps publishing and consuming every event when the server
 * leading the stream is killed.
 */
import { transferMatched } from "@chaingate/contracts";
import { startPrivateNatsCluster, type PrivateNatsCluster } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import { connectBus, type Bus } from "./index.ts";
import { sampleTransfer } from "./testing/sample-transfer.ts";

const logger = { info: () => {}, warn: () => {}, error: () => {} };

const transfer = (n: number) => sampleTransfer({ webhook_id: n, event_id: `evt-${n}` });

/** Retries `work` while the cluster elects leaders (JetStream answers "temporarily unavailable" meanwhile). */
async function eventually<T>(work: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const it = integrationTest.extend<{
  /** Three nats-servers of the file's own in one JetStream cluster, destroyed after the file. */
  cluster: PrivateNatsCluster;
  /** A connection through the cluster's server list, creating its streams with 3 replicas; `transfer.matched`'s stream ensured. */
  busConnection: Bus;
}>({
  cluster: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const cluster = await startPrivateNatsCluster(3);
      try {
        await use(cluster);
      } finally {
        await cluster.destroy();
      }
    },
    { scope: "file" },
  ],
  busConnection: [
    async ({ cluster }, use) => {
      const connection = await eventually(() => connectBus({ url: cluster.url, name: "replicas-test", logger, streamReplicas: 3 }));
      try {
        await eventually(() => connection.ensureStreams([transferMatched]));
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});

describe("streams in a JetStream cluster", () => {
  // The cluster's start-up (up to 90 s while it elects leaders) runs within this test's time.
  it("are created with the configured replicas and lose no event when the stream's leader server dies", async ({
    busConnection,
    cluster,
  }) => {
    const info = await busConnection.admin.streamInfo(transferMatched);
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas).toHaveLength(2);

    const received = new Set<number>();
    const consumption = await busConnection.consume(transferMatched, {
      durable: "replicas-test",
      handle: async (event) => void received.add(event.webhook_id),
    });
    for (let n = 1; n <= 20; n++) await eventually(() => busConnection.publish(transferMatched, transfer(n)));
    await expect.poll(() => received.size, { timeout: 20_000 }).toBe(20);

    // Kill the server that leads the stream: another replica takes over with every stored event.
    const leader = (await busConnection.admin.streamInfo(transferMatched)).cluster!.leader!;
    const index = Number(leader.slice(leader.lastIndexOf("-") + 1));
    await cluster.servers[index]!.kill();
    for (let n = 21; n <= 40; n++) await eventually(() => busConnection.publish(transferMatched, transfer(n)));
    await expect.poll(() => received.size, { timeout: 60_000 }).toBe(40);
    const after = await eventually(() => busConnection.admin.streamInfo(transferMatched));
    expect(after.state.messages).toBe(40);
    expect(after.cluster?.leader).not.toBe(leader);
    await consumption.stop();
  }, 150_000);
});
