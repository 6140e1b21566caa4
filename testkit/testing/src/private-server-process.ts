/**
 * The start/stop/kill shape of a server a test runs of its own (private-nats.ts, private-postgres.ts):
 * one child process on a fixed loopback port and data directory, which the test may stop and start
 * again, restart, or kill -9 as a crash would, and which `destroy` stops and deletes.
 */
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { stopChild, waitForExit, waitForPort } from "./processes.ts";

export interface PrivateServerProcess {
  url: string;
  port: number;
  /** A graceful stop, then a start on the same port and data. */
  restart(): Promise<void>;
  /** A graceful stop; `start()` brings the server back on the same port and data. */
  stop(): Promise<void>;
  /** SIGKILL: a crash; `start()` recovers from what the server left on disk. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  destroy(): Promise<void>;
}

export interface PrivateServerSpec {
  url: string;
  port: number;
  /** The directory the server keeps its data in, deleted by `destroy`. */
  dir: string;
  /** Spawns the server (its data in `dir`, listening on `port`). */
  spawn(): ChildProcess;
  /** Resolves once the spawned server accepts connections. */
  ready(child: ChildProcess): Promise<void>;
  /** The signal that stops the server gracefully. */
  stopSignal: NodeJS.Signals;
  /** Kills the server as a crash would (default: SIGKILL to the process). */
  crash?(child: ChildProcess): Promise<void>;
  /** How long a stopping server may take to exit. */
  stopTimeoutMs: number;
}

/** Starts the server and resolves once it accepts connections. */
export async function startPrivateServerProcess(spec: PrivateServerSpec): Promise<PrivateServerProcess> {
  let server: ChildProcess | undefined;

  async function start(): Promise<void> {
    const child = spec.spawn();
    server = child;
    await spec.ready(child);
  }

  async function stop(crash: boolean): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    if (crash) {
      if (spec.crash) await spec.crash(child);
      else child.kill("SIGKILL");
      await waitForExit(child, spec.stopTimeoutMs);
    } else {
      await stopChild(child, { signal: spec.stopSignal, timeoutMs: spec.stopTimeoutMs });
    }
    await waitForPort(spec.port, false);
  }

  await start();
  return {
    url: spec.url,
    port: spec.port,
    async restart() {
      await stop(false);
      await start();
    },
    stop: () => stop(false),
    kill: () => stop(true),
    start,
    async destroy() {
      await stop(false);
      rmSync(spec.dir, { recursive: true, force: true });
    },
  };
}
