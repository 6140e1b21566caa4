/**
 * A nats-server with JetStream of a test's own (its own loopback port and store directory) that the
 * test may restart, stop or kill -9: drills never touch the machine's shared NATS.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPrivateServerProcess, type PrivateServerProcess } from "./private-server-process.ts";
import { freePort, waitForPort } from "./processes.ts";

const START_TIMEOUT_MS = 20_000;

/** Graceful stops (`stop`, `restart`) keep JetStream's state; `start` after `kill` recovers the store. */
export type PrivateNats = PrivateServerProcess;

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
  return startPrivateServerProcess({
    url,
    port,
    dir: storeDir,
    spawn: () =>
      spawn(binary, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, ...(options.extraArgs ?? [])], { stdio: "ignore" }),
    ready: () => waitForPort(port, true),
    stopSignal: "SIGTERM",
    stopTimeoutMs: START_TIMEOUT_MS,
  });
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
