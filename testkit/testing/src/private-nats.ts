/**
 * A nats-server with JetStream of a test's own (its own loopback port and store directory) that the
 * test may restart, stop or kill -9: drills never touch the machine's shared NATS.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitForExit, waitForPort } from "./processes.ts";

const START_TIMEOUT_MS = 20_000;

export interface PrivateNats {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Graceful stop and start on the same port and store: JetStream state survives. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL: a crash; `start()` recovers the store. */
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

function serverBinary(): string {
  for (const candidate of ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("nats-server is not installed (apt-get install nats-server)");
}

/** `extraArgs`: further nats-server flags (cluster membership); `port`: a port chosen beforehand. */
export async function startPrivateNats(options: { port?: number; extraArgs?: readonly string[] } = {}): Promise<PrivateNats> {
  const binary = serverBinary();
  const storeDir = mkdtempSync(path.join(tmpdir(), "chaingate-nats-"));
  const port = options.port ?? (await freePort());
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;

  async function start(): Promise<void> {
    server = spawn(binary, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, ...(options.extraArgs ?? [])], {
      stdio: "ignore",
    });
    await waitForPort(port, true);
  }

  async function stop(signal: NodeJS.Signals): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill(signal);
    await waitForExit(child, START_TIMEOUT_MS);
    await waitForPort(port, false);
  }

  await start();
  return {
    url,
    port,
    async restart() {
      await stop("SIGTERM");
      await start();
    },
    stop: () => stop("SIGTERM"),
    kill: () => stop("SIGKILL"),
    start,
    async destroy() {
      await stop("SIGTERM");
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

export interface PrivateNatsCluster {
  /** Every server's client URL, comma-separated (what NATS_URL takes). */
  url: string;
  servers: PrivateNats[];
  destroy(): Promise<void>;
}

/**
 * A JetStream cluster of `size` nats-servers on loopback (routes between all of them), for tests of
 * replicated streams: kill one server and the others keep every stream with a replica on them.
 */
export async function startPrivateNatsCluster(size = 3): Promise<PrivateNatsCluster> {
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i++) {
    clientPorts.push(await freePort());
    routePorts.push(await freePort());
  }
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(",");
  const name = `cg${process.pid}`;
  const servers = await Promise.all(
    clientPorts.map((port, i) =>
      startPrivateNats({
        port,
        extraArgs: [
          "--server_name",
          `${name}-${i}`,
          "--cluster_name",
          name,
          "--cluster",
          `nats://127.0.0.1:${routePorts[i]}`,
          "--routes",
          routes,
        ],
      }),
    ),
  );
  return {
    url: servers.map((server) => server.url).join(","),
    servers,
    destroy: async () => void (await Promise.all(servers.map((server) => server.destroy()))),
  };
}
