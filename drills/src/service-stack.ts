/**
 * chaingate's services as real processes, each started with its package's start script on a free
 * loopback port, for drills that must see what an operator's deployment does.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, waitForHttp, type SpawnedService } from "@chaingate/testing";

const SERVICES_DIR = fileURLToPath(new URL("../../services/", import.meta.url));

export interface ServiceStack {
  /** Starts `service` (a directory under services/) as `name`; resolves with its URL once /healthz answers. */
  start(name: string, service: string, env: Record<string, string>): Promise<string>;
  processes: Record<string, SpawnedService>;
  /** Names of the processes that have exited. */
  exited(): string[];
  /** Each exited process with its exit code or signal and the end of its output: what a failed drill must show. */
  exitReport(): string;
  stop(): Promise<void>;
}

export function createServiceStack(): ServiceStack {
  const processes: Record<string, SpawnedService> = {};
  const exitedEntries = () => Object.entries(processes).filter(([, p]) => p.process.exitCode !== null || p.process.signalCode !== null);
  return {
    processes,
    async start(name, service, env) {
      const port = await freePort();
      processes[name] = spawnService(`${SERVICES_DIR}${service}`, { PORT: String(port), LOG_LEVEL: "warn", ...env });
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/healthz`, 60_000);
      return url;
    },
    exited: () => exitedEntries().map(([name]) => name),
    exitReport: () =>
      exitedEntries()
        .map(([name, p]) => `--- ${name} exited (${p.process.exitCode ?? p.process.signalCode}):\n${p.output().slice(-3_000)}`)
        .join("\n"),
    async stop() {
      await Promise.all(Object.values(processes).map((p) => p.stop()));
    },
  };
}
