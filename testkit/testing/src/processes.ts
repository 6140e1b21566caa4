/**
 * Child processes for tests, benchmarks and the dev stack: services launched with exactly their
 * `start` script, free ports, readiness polling, and stopping with a deadline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";

/** How long a stopped process may take to exit before it is killed. */
export const STOP_TIMEOUT_MS = 20_000;
const HTTP_POLL_INTERVAL_MS = 100;
const PORT_POLL_INTERVAL_MS = 50;

/**
 * The `node` arguments of a service's `start` script: its package.json is the one source of
 * launch flags (young-generation size, --expose-gc, telemetry preload).
 */
export function readStartArguments(serviceDir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(`${serviceDir}/package.json`, "utf8")) as { scripts: { start: string } };
  const [command, ...args] = scripts.start.split(/\s+/);
  if (command !== "node") throw new Error(`${serviceDir}: the start script must run node directly`);
  return args;
}

export interface SpawnedService {
  process: ChildProcess;
  output(): string;
  /** Peak and current resident set size of the process, in bytes (Linux /proc). */
  memory(): { peakRss: number; rss: number };
  /** Resets the kernel's peak-RSS counter (VmHWM) to the current RSS. */
  resetPeakMemory(): void;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns a service with its start script's arguments, so tests measure what runs. */
export function spawnService(serviceDir: string, env: Record<string, string>, options: { captureOutput?: boolean } = {}): SpawnedService {
  const child = spawn(process.execPath, readStartArguments(serviceDir), {
    cwd: serviceDir,
    // Test and bench stacks run without the internal token unless they pass one (or say otherwise).
    env: { ALLOW_NO_INTERNAL_TOKEN: "true", ...process.env, ...env },
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
      await stopChild(child);
      return exited;
    },
  };
}

/** A service process serving on a free loopback port. */
export interface ServiceProcess extends SpawnedService {
  url: string;
  port: number;
}

/**
 * Spawns a service (its start script) on a free port with `env` and resolves once `/healthz`
 * answers: one replica of a multi-process test, or a test fixture's service process.
 */
export async function startServiceProcess(serviceDir: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const spawned = spawnService(serviceDir, { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`);
  } catch (error) {
    await spawned.stop();
    throw new Error(`${serviceDir} did not answer /healthz: ${spawned.output().slice(-2_000)}`, { cause: error });
  }
  return { ...spawned, url, port };
}

/** Resolves true once `child` has exited, false if it is still running after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Sends `signal` (SIGTERM by default) and waits; SIGKILL if the process outlives the deadline. */
export async function stopChild(child: ChildProcess, options: { signal?: NodeJS.Signals; timeoutMs?: number } = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(options.signal ?? "SIGTERM");
  if (await waitForExit(child, options.timeoutMs ?? STOP_TIMEOUT_MS)) return;
  child.kill("SIGKILL");
  await waitForExit(child, STOP_TIMEOUT_MS);
}

/** Ports this process has handed out: two callers here never get the same one. */
const handedOut = new Set<number>();
/** Where handed-out ports start; they end below the kernel's ephemeral range. */
export const FIRST_CHOSEN_PORT = 10_000;

/** The lowest port the kernel hands to port-0 binds and outgoing connections (Linux; 32768 elsewhere). */
export function ephemeralPortFloor(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

async function canBind(port: number): Promise<boolean> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (bound) await new Promise((resolve) => server.close(resolve));
  return bound;
}

/**
 * A port free on loopback for a process the caller starts next. It is chosen below the ephemeral
 * range: a port-0 server (a test's webhook receiver) or an outgoing connection could otherwise be
 * given it between this check and the child's bind, and answer in the child's place.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralPortFloor() - FIRST_CHOSEN_PORT;
  if (span < 1_000) throw new Error("the ephemeral port range starts too low to choose ports below it");
  for (;;) {
    const port = FIRST_CHOSEN_PORT + Math.floor(Math.random() * span);
    if (handedOut.has(port) || !(await canBind(port))) continue;
    handedOut.add(port);
    return port;
  }
}

/** Polls `url` until it answers at all (any status), or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, HTTP_POLL_INTERVAL_MS));
    }
  }
}

/** Resolves once a TCP connection to 127.0.0.1:`port` succeeds (`open`) or is refused (`!open`). */
export async function waitForPort(port: number, open: boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepting = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (accepting === open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} is still ${open ? "closed" : "open"} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, PORT_POLL_INTERVAL_MS));
  }
}
