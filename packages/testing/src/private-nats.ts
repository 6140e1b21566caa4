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

export async function startPrivateNats(): Promise<PrivateNats> {
  const binary = serverBinary();
  const storeDir = mkdtempSync(path.join(tmpdir(), "chaingate-nats-"));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;

  async function start(): Promise<void> {
    server = spawn(binary, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], { stdio: "ignore" });
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
