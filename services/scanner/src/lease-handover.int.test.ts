/**
 * Two scanner processes (the package's start script) on one database and one litecoind: exactly
 * one follows Bitcoin; SIGKILL it and the other takes the chain over within seconds, resuming
 * from the stored cursor, so no watched payment goes unnotified.
 */
import { fileURLToPath } from "node:url";
import {
  createTestDatabase,
  freePort,
  spawnService,
  startLitecoindRegtest,
  waitForHttp,
  type LitecoindRegtest,
  type SpawnedService,
  type TestDatabase,
} from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEventRecorder, waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const LEASE_POLL_MS = 250;
/** The handover must complete within this after the kill (lease poll + a block fetch + margins). */
const HANDOVER_LIMIT_MS = 5_000;

let node: LitecoindRegtest;
let database: TestDatabase;
let recorder: EventRecorder;
const replicas: SpawnedService[] = [];

async function spawnReplica(): Promise<SpawnedService> {
  const port = await freePort();
  const replica = spawnService(SERVICE_DIR, {
    PORT: String(port),
    LOG_LEVEL: "info",
    DATABASE_URL: database.connectionString,
    NATS_URL: process.env.NATS_URL!,
    NATS_NAMESPACE: recorder.namespace,
    BTC_RPC_URL: node.rpcUrl,
    BTC_RPC_USER: node.rpcUser,
    BTC_RPC_PASSWORD: node.rpcPassword,
    SCANNER_POLL_INTERVAL_MS: "100",
    SCANNER_LEASE_POLL_MS: String(LEASE_POLL_MS),
  });
  replicas.push(replica);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
  return replica;
}

const leaseAcquired = (replica: SpawnedService) => replica.output().includes('"message":"lease acquired"');

beforeAll(async () => {
  [node, database, recorder] = await Promise.all([startLitecoindRegtest(), createTestDatabase(), startEventRecorder()]);
  await node.mine(101);
});

afterAll(async () => {
  for (const replica of replicas) await replica.stop();
  await recorder?.close();
  await node?.stop();
  await database?.drop();
});

describe("two scanner replicas", () => {
  test("exactly one follows; killing it hands the chain over within seconds and nothing is missed", async () => {
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
    await recorder.waitFor("the notification after the kill", () => recorder.transfers.some((t) => t.amount === "0.2"), HANDOVER_LIMIT_MS);
    expect(Date.now() - killedAt).toBeLessThan(HANDOVER_LIMIT_MS);
    expect(recorder.transfers.map((t) => t.amount).sort()).toEqual(["0.1", "0.2"]);
  });
});
