/**
 * chaingate's services as real processes, each started with its package's start script on a free
 * loopback port, for drills that must see what an operator's deployment does.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, stopChild, waitForHttp, type SpawnedService } from "@chaingate/testing";

const SERVICES_DIR = fileURLToPath(new URL("../../services/", import.meta.url));
/** A service's first start runs its migrations; a restart should be quicker. */
const START_TIMEOUT_MS = 60_000;

export interface ServiceStack {
  /** Starts `service` (a directory under services/) as `name`; resolves with its URL once /healthz answers. */
  start(name: string, service: string, env: Record<string, string>): Promise<string>;
  /**
   * Stops `name` with `signal` (SIGKILL: a crash, nothing flushed) and starts it again with the same
   * service, environment and port; resolves once /healthz answers.
   */
  restart(name: string, signal?: NodeJS.Signals): Promise<void>;
  processes: Record<string, SpawnedService>;
  /** The URL `name` listens on (kept across restarts). */
  url(name: string): string;
  /** Names of the processes that have exited. */
  exited(): string[];
  /** Each exited process with its exit code or signal and the end of its output: what a failed drill must show. */
  exitReport(): string;
  stop(): Promise<void>;
}

export function createServiceStack(): ServiceStack {
  const processes: Record<string, SpawnedService> = {};
  const launches: Record<string, { service: string; env: Record<string, string> }> = {};
  const exitedEntries = () => Object.entries(processes).filter(([, p]) => p.process.exitCode !== null || p.process.signalCode !== null);
  async function launch(name: string): Promise<string> {
    const { service, env } = launches[name]!;
    const spawned = spawnService(`${SERVICES_DIR}${service}`, { LOG_LEVEL: "warn", ...env });
    processes[name] = spawned;
    const url = `http://127.0.0.1:${env.PORT}`;
    // A child that died (its port taken, a bad setting) must fail the start, not leave whatever else answers there.
    const exited = new Promise<never>((_, reject) =>
      spawned.process.once("exit", (code, signal) =>
        reject(new Error(`${name} exited (${code ?? signal}) before answering:\n${spawned.output().slice(-3_000)}`)),
      ),
    );
    await Promise.race([waitForHttp(`${url}/healthz`, START_TIMEOUT_MS), exited]);
    return url;
  }
  return {
    processes,
    async start(name, service, env) {
      launches[name] = { service, env: { PORT: String(await freePort()), ...env } };
      return launch(name);
    },
    async restart(name, signal = "SIGTERM") {
      await stopChild(processes[name]!.process, { signal });
      await launch(name);
    },
    url: (name) => `http://127.0.0.1:${launches[name]!.env.PORT}`,
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
