/** Starts a service's main.ts as its own process (tsx), for tests that measure or kill processes. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";


export interface SpawnedService {
  process: ChildProcess;
  output(): string;
  /** Peak and current resident set size of the process, in bytes (Linux /proc). */
  memory(): { peakRss: number; rss: number };
  /** Resets the kernel's peak-RSS counter (VmHWM) to the current RSS. */
  resetPeakMemory(): void;
  stop(): Promise<number | null>;
}

/**
 * Spawns `node` with exactly the arguments of the service's `start` script (its package.json is
 * the one source of launch flags such as the young-generation size), so tests measure what runs.
 */
export function spawnService(serviceDir: string, env: Record<string, string>, options: { captureOutput?: boolean } = {}): SpawnedService {
  const { scripts } = JSON.parse(readFileSync(`${serviceDir}/package.json`, "utf8")) as { scripts: { start: string } };
  const [command, ...args] = scripts.start.split(/\s+/);
  if (command !== "node") throw new Error(`${serviceDir}: the start script must run node directly`);
  const child = spawn(process.execPath, args, {
    cwd: serviceDir,
    env: { ...process.env, ...env },
    // Benchmarks drop the output: collecting access-log lines would load the measuring process.
    stdio: options.captureOutput === false ? "ignore" : ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    process: child,
    output: () => output,
    memory() {
      const status = readFileSync(`/proc/${child.pid!}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
      return { peakRss: kb("VmHWM"), rss: kb("VmRSS") };
    },
    resetPeakMemory() {
      writeFileSync(`/proc/${child.pid!}/clear_refs`, "5");
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
