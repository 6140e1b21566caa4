/**
 * Two scanner processes (the package's start script) on one database and one litecoind: exactly
 * one follows Bitcoin; SIGKILL it and the other takes the chain over within seconds, resuming
 * from the stored cursor, so no watched payment goes unnotified. And the holder cut off from the
 * database without FIN or RST (its lease session's packets dropped by the kernel, or every
 * connection frozen behind a relay that keeps TCP alive): a standby follows within 30 s with the
 * default settings, and every replica shows the gap while it lasts (/readyz, metrics).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, spawnService, waitForHttp, type LitecoindRegtest, type SpawnedService } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { DEFAULT_LEASE_EXPIRY_MS, DEFAULT_LEASE_POLL_MS } from "./infra/advisory-lease.ts";
import { startTcpRelay, type TcpRelay } from "./testing/tcp-relay.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const LEASE_POLL_MS = 250;
/** The handover must complete within this after the kill (lease poll + a block fetch + margins). */
const HANDOVER_LIMIT_MS = 5_000;

interface Replica extends SpawnedService {
  url: string;
}

/** The file's peers, and the replicas a test spawns over them. */
interface LeaseCluster {
  node: LitecoindRegtest;
  database: { connectionString: string };
  recorder: EventRecorder & { natsUrl: string };
  /** A scanner replica (the package's start script); `settings` override the file's. Stopped after the test. */
  spawnReplica(settings?: Record<string, string>): Promise<Replica>;
}

/** Per test: the replicas it spawns over the file's litecoind (101 blocks up), database and bus are stopped after it. */
const test = scannerTest.extend<{ leaseCluster: LeaseCluster }>({
  leaseCluster: async ({ matureLitecoind: node, database, recorder }, use) => {
    const replicas: SpawnedService[] = [];
    const cluster: LeaseCluster = {
      node,
      database,
      recorder,
      spawnReplica: (settings = {}) => spawnReplica(cluster, replicas, settings),
    };
    try {
      await use(cluster);
    } finally {
      for (const replica of replicas.splice(0)) await replica.stop();
    }
  },
});

async function spawnReplica(
  { node, database, recorder }: LeaseCluster,
  replicas: SpawnedService[],
  settings: Record<string, string>,
): Promise<Replica> {
  const port = await freePort();
  const replica = spawnService(SERVICE_DIR, {
    PORT: String(port),
    LOG_LEVEL: "info",
    DATABASE_URL: database.connectionString,
    NATS_URL: recorder.natsUrl,
    NATS_NAMESPACE: recorder.namespace,
    BTC_RPC_URL: node.rpcUrl,
    BTC_RPC_USER: node.rpcUser,
    BTC_RPC_PASSWORD: node.rpcPassword,
    SCANNER_POLL_INTERVAL_MS: "100",
    SCANNER_LEASE_POLL_MS: String(LEASE_POLL_MS),
    ...settings,
  });
  replicas.push(replica);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
  return { ...replica, url: `http://127.0.0.1:${port}` };
}

const leaseAcquired = (replica: SpawnedService) => replica.output().includes('"message":"lease acquired"');

describe("two scanner replicas", () => {
  test(
    "exactly one follows; killing it hands the chain over within seconds and nothing is missed",
    async ({ leaseCluster: { node, database, recorder, spawnReplica } }) => {
      const first = await spawnReplica();
      await recorder.waitFor("the first replica's lease", () => leaseAcquired(first));
      const second = await spawnReplica();
      await recorder.waitFor("the second replica standing by", () => second.output().includes("standing by"));
      expect(leaseAcquired(second)).toBe(false);

      const address = await node.walletRpc<string>("getnewaddress");
      await recorder.publishWebhook({ webhook_id: 1, coin: "BTC", addresses: [address] });
      await waitForWebhookStored(database.connectionString, 1);
      await node.fundAddress(address, "0.1");
      await node.mine(1);
      await recorder.waitFor("the leader's notification", () => recorder.transfers.length === 1);

      first.process.kill("SIGKILL");
      const killedAt = Date.now();
      // Paid while nobody follows: the new leader must still notify it.
      await node.fundAddress(address, "0.2");
      await node.mine(1);
      await recorder.waitFor("the standby's lease", () => leaseAcquired(second), HANDOVER_LIMIT_MS);
      await recorder.waitFor(
        "the notification after the kill",
        () => recorder.transfers.some((t) => t.amount === "0.2"),
        HANDOVER_LIMIT_MS,
      );
      expect(Date.now() - killedAt).toBeLessThan(HANDOVER_LIMIT_MS);
      expect(recorder.transfers.map((t) => t.amount).sort()).toEqual(["0.1", "0.2"]);
      // The file's first test: litecoind, its 101 blocks, the database and the recorder start inside it.
    },
    60_000 + 120_000,
  );
});

/** What the lease partition tests read from a replica: its readiness body and chain metrics. */
async function chainView(replica: Replica) {
  const ready = (await (await fetch(`${replica.url}/readyz`)).json()) as { degraded?: Record<string, string> };
  const metrics = await (await fetch(`${replica.url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^scanner_${name}\\{chain="btc"\\} (\\S+)$`, "m").exec(metrics)?.[1] ?? NaN);
  return {
    unfollowed: ready.degraded?.chainsFollowed,
    followed: gauge("chain_followed"),
    lagBlocks: gauge("lag_blocks"),
    leader: gauge("leader"),
  };
}

/** Port of the holder's lease session, as Postgres sees it (the renewal row names its backend). */
async function leaseSessionPort(database: { connectionString: string }): Promise<number> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ client_port: number }>(
      `select a.client_port from scanner.lease_renewals r join pg_stat_activity a on a.pid = r.holder_pid where r.name = 'scanner:BTC'`,
    );
    return rows[0]!.client_port;
  } finally {
    await client.end();
  }
}

const IPTABLES_TAG = `chaingate-lease-partition-${process.pid}`;
const iptablesUsable = (() => {
  try {
    execFileSync("iptables", ["-S", "INPUT"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
/** Drops every packet to and from one loopback port: a partition, no FIN, no RST. Returns the undo. */
function dropPort(port: number): () => void {
  const rules = ["--sport", "--dport"].map((direction) => [
    "INPUT",
    "-p",
    "tcp",
    direction,
    String(port),
    "-m",
    "comment",
    "--comment",
    IPTABLES_TAG,
    "-j",
    "DROP",
  ]);
  const added: string[][] = [];
  for (const rule of rules) {
    execFileSync("iptables", ["-I", ...rule]);
    added.push(rule);
  }
  return () => added.forEach((rule) => execFileSync("iptables", ["-D", ...rule]));
}

/** The default lease settings, as a production replica runs them (not the file's fast poll). */
const DEFAULT_LEASE = { SCANNER_LEASE_POLL_MS: String(DEFAULT_LEASE_POLL_MS), SCANNER_LEASE_EXPIRY_MS: String(DEFAULT_LEASE_EXPIRY_MS) };
const TAKEOVER_LIMIT_MS = 30_000;

describe("a lease holder cut off from the database without FIN or RST", () => {
  /**
   * The partition: the holder is cut, a payment is mined once it has given the lease up, and a
   * replica must notify it within 30 s of the cut, the standby having shown the chain unfollowed
   * in between.
   */
  async function partitionAndPay(
    { node, recorder }: LeaseCluster,
    cut: () => Promise<void> | void,
    holder: Replica,
    standby: Replica,
    address: string,
    amount: string,
  ) {
    const cutAt = Date.now();
    await cut();
    // Paid once the holder has given the lease up (its other connections may still work: a block
    // mined at once could be notified by the cut-off holder before it notices).
    await recorder.waitFor("the holder giving the lease up", () => holder.output().includes('"message":"lease lost"'), 10_000);
    await node.fundAddress(address, amount);
    await node.mine(1);
    let gapSeen: Awaited<ReturnType<typeof chainView>> | undefined;
    while (!recorder.transfers.some((t) => t.amount === amount)) {
      expect(Date.now() - cutAt, "the payment is notified within 30 s of the cut").toBeLessThan(TAKEOVER_LIMIT_MS);
      const view = await chainView(standby);
      if (view.unfollowed) gapSeen ??= view;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { gapSeen, takeoverMs: Date.now() - cutAt };
  }

  async function startPair({ node, database, recorder, spawnReplica }: LeaseCluster, holderSettings: Record<string, string>) {
    const holder = await spawnReplica({ ...DEFAULT_LEASE, ...holderSettings });
    await recorder.waitFor("the holder's lease", () => leaseAcquired(holder), 60_000);
    const standby = await spawnReplica(DEFAULT_LEASE);
    await recorder.waitFor("the standby standing by", () => standby.output().includes("standing by"), 60_000);
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 2, coin: "BTC", addresses: [address] });
    await waitForWebhookStored(database.connectionString, 2);
    await node.fundAddress(address, "0.3");
    await node.mine(1);
    await recorder.waitFor("the holder's notification", () => recorder.transfers.some((t) => t.amount === "0.3"), 30_000);
    await expect.poll(async () => (await chainView(standby)).followed, { timeout: 10_000 }).toBe(1);
    return { holder, standby, address };
  }

  test.skipIf(!iptablesUsable)(
    "its lease session's packets dropped by the kernel: a replica follows within 30 s; the gap shows on /readyz and in metrics",
    async ({ leaseCluster: cluster }) => {
      const { holder, standby, address } = await startPair(cluster, {});
      let undo = () => {};
      try {
        const { gapSeen, takeoverMs } = await partitionAndPay(
          cluster,
          async () => {
            undo = dropPort(await leaseSessionPort(cluster.database));
          },
          holder,
          standby,
          address,
          "0.4",
        );
        expect(gapSeen, "the standby's /readyz said the chain was unfollowed while it was").toMatchObject({
          unfollowed: expect.stringMatching(/^no replica follows BTC \(lease not renewed for \d+ s\)$/),
          followed: 0,
        });
        expect(gapSeen!.lagBlocks, "lag from the node's tip, not the last processed block").toBeGreaterThanOrEqual(1);
        console.error(`partition (packets dropped): notified ${takeoverMs} ms after the cut`);
      } finally {
        undo();
      }
      await expect.poll(async () => (await chainView(standby)).unfollowed, { timeout: 10_000 }).toBeUndefined();
      await expect.poll(async () => (await chainView(standby)).followed).toBe(1);
    },
  );

  test("every connection frozen behind a relay that keeps TCP alive (Postgres never notices): the standby ends the silent session and follows within 30 s", async ({
    leaseCluster: cluster,
  }) => {
    const { database } = cluster;
    const relay: TcpRelay = await startTcpRelay(Number(new URL(database.connectionString).port || 5432));
    try {
      const viaRelay = new URL(database.connectionString);
      viaRelay.host = `127.0.0.1:${relay.port}`;
      const { holder, standby, address } = await startPair(cluster, { DATABASE_URL: viaRelay.toString() });
      const { gapSeen, takeoverMs } = await partitionAndPay(cluster, () => relay.freeze(), holder, standby, address, "0.5");
      expect(gapSeen).toMatchObject({ unfollowed: expect.stringContaining("no replica follows BTC"), followed: 0 });
      expect(standby.output()).toContain("ended its database session to take the lease over");
      expect(holder.output()).toContain('"message":"lease lost"');
      console.error(`partition (frozen relay): notified ${takeoverMs} ms after the cut`);
      // The network comes back: the old holder stands by; exactly one replica leads.
      await relay.start();
      await expect.poll(async () => (await chainView(holder)).leader + (await chainView(standby)).leader, { timeout: 20_000 }).toBe(1);
    } finally {
      await relay.stop();
    }
  });
});
