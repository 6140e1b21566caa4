/**
 * Where the tests' Postgres and NATS live: `DATABASE_URL` / `NATS_URL` when set; otherwise
 * containers started with testcontainers (machines with a Docker engine); otherwise the loopback
 * services a build machine runs (postgres://127.0.0.1:5432, nats://127.0.0.1:4222).
 */
import net from "node:net";

export interface TestInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  /** Stops what this process started (containers); a no-op for services it found running. */
  stop(): Promise<void>;
}

const LOOPBACK_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const LOOPBACK_NATS_URL = "nats://127.0.0.1:4222";

export async function provideTestInfrastructure(env: NodeJS.ProcessEnv = process.env): Promise<TestInfrastructure> {
  if (env.DATABASE_URL && env.NATS_URL) {
    return { databaseUrl: env.DATABASE_URL, natsUrl: env.NATS_URL, stop: async () => {} };
  }
  const containers = await startContainers(env).catch(() => undefined);
  if (containers) {
    return {
      databaseUrl: env.DATABASE_URL ?? containers.databaseUrl,
      natsUrl: env.NATS_URL ?? containers.natsUrl,
      stop: containers.stop,
    };
  }
  const databaseUrl = env.DATABASE_URL ?? LOOPBACK_DATABASE_URL;
  const natsUrl = env.NATS_URL ?? LOOPBACK_NATS_URL;
  for (const url of [databaseUrl, natsUrl]) {
    if (!(await isListening(new URL(url)))) {
      throw new Error(`No Docker engine for testcontainers and nothing listens at ${url}; set DATABASE_URL and NATS_URL.`);
    }
  }
  return { databaseUrl, natsUrl, stop: async () => {} };
}

/** Official images by default; TESTCONTAINERS_POSTGRES_IMAGE / TESTCONTAINERS_NATS_IMAGE name others (e.g. locally built ones where no registry is reachable). */
async function startContainers(env: NodeJS.ProcessEnv): Promise<{ databaseUrl: string; natsUrl: string; stop(): Promise<void> }> {
  // Loaded lazily: machines without Docker never pay for (or trip over) the Docker client.
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  await getContainerRuntimeClient();
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const [postgres, nats] = await Promise.all([
    new PostgreSqlContainer(env.TESTCONTAINERS_POSTGRES_IMAGE || "postgres:16-alpine").start(),
    new GenericContainer(env.TESTCONTAINERS_NATS_IMAGE || "nats:2.10-alpine")
      .withCommand(["-js"])
      .withExposedPorts(4222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start(),
  ]);
  return {
    databaseUrl: postgres.getConnectionUri(),
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    stop: async () => {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}

function isListening(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    socket.setTimeout(1_000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
  });
}
