/**
 * The testcontainers path of @chaingate/testing's provideTestInfrastructure (taken on machines
 * with Docker and without DATABASE_URL/NATS_URL), exercised with real containers: Postgres and NATS
 * images made locally by scripts/build-images.sh (no registry here; TESTCONTAINERS_*_IMAGE name
 * them), Ryuk disabled. Skipped, saying why, where no Docker engine can run.
 */
import { spawnSync } from "node:child_process";
import { connectBus, type Bus } from "@chaingate/bus";
import { addressIssued } from "@chaingate/contracts";
import { createTestDatabase, provideTestInfrastructure, type TestInfrastructure } from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerAvailability, exec } from "./docker.ts";

const docker = dockerAvailability();
if (!docker.ok) process.stderr.write(`[deploy] testcontainers test skipped: ${docker.reason}\n`);

// Where a registry is reachable (NODE_IMAGE set for the image builds), the official images.
const images = process.env.NODE_IMAGE
  ? { TESTCONTAINERS_POSTGRES_IMAGE: "postgres:16-alpine", TESTCONTAINERS_NATS_IMAGE: "nats:2.10-alpine" }
  : { TESTCONTAINERS_POSTGRES_IMAGE: "chaingate-local/postgres:15", TESTCONTAINERS_NATS_IMAGE: "chaingate-local/nats:2.9" };

const quietBusLogger = { info() {}, warn() {}, error() {} };

/** Containers testcontainers started (it labels them), by image. */
function testcontainersRunning(image: string): string[] {
  const ps = spawnSync("docker", ["ps", "-q", "--filter", "label=org.testcontainers=true", "--filter", `ancestor=${image}`], {
    encoding: "utf8",
  });
  return ps.stdout.split("\n").filter(Boolean);
}

describe.skipIf(!docker.ok)(`testcontainers infrastructure${docker.ok ? "" : ` (skipped: ${docker.reason})`}`, () => {
  let infrastructure: TestInfrastructure | undefined;
  let bus: Bus | undefined;

  beforeAll(async () => {
    process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
    if (!process.env.NODE_IMAGE) await exec("bash", ["scripts/build-images.sh", "--bases"], { timeoutMs: 10 * 60_000 });
  }, 11 * 60_000);

  afterAll(async () => {
    await bus?.close();
    await infrastructure?.stop();
  }, 60_000);

  it("starts Postgres and NATS with JetStream in containers, and removes them on stop", async () => {
    // No DATABASE_URL / NATS_URL: the containers path.
    infrastructure = await provideTestInfrastructure({ ...images });
    const { databaseUrl, natsUrl } = infrastructure;
    // Not the loopback services this machine also runs (the fallback when containers fail).
    expect(databaseUrl).not.toMatch(/@127\.0\.0\.1:5432\//);
    expect(natsUrl).not.toBe("nats://127.0.0.1:4222");
    expect(testcontainersRunning(images.TESTCONTAINERS_POSTGRES_IMAGE)).toHaveLength(1);
    expect(testcontainersRunning(images.TESTCONTAINERS_NATS_IMAGE)).toHaveLength(1);

    // Postgres: a test database is created and dropped through the container's password auth.
    const database = await createTestDatabase(databaseUrl);
    expect(database.connectionString).toContain(new URL(databaseUrl).host);
    await database.drop();

    // NATS: a JetStream stream, a published event, and a durable consumer that receives it.
    bus = await connectBus({ url: natsUrl, name: "testcontainers-test", logger: quietBusLogger, namespace: "tc" });
    await bus.ensureStreams([addressIssued]);
    const event = {
      account_id: 1,
      xpub_id: 7,
      coin: "BTC" as const,
      address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      index: 0,
      issued_at: new Date().toISOString(),
    };
    expect((await bus.publish(addressIssued, event)).duplicate).toBe(false);
    const received = await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no event within 10 s")), 10_000);
      void bus!.consume(addressIssued, {
        durable: "testcontainers-test",
        handle: async (payload) => {
          clearTimeout(timer);
          resolve(payload);
        },
      });
    });
    expect(received).toEqual(event);

    await bus.close();
    bus = undefined;
    await infrastructure.stop();
    infrastructure = undefined;
    expect(testcontainersRunning(images.TESTCONTAINERS_POSTGRES_IMAGE)).toEqual([]);
    expect(testcontainersRunning(images.TESTCONTAINERS_NATS_IMAGE)).toEqual([]);
  }, 120_000);
});
