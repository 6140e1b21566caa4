/**
 * The dev stack (scripts/dev.ts) as a new user runs it, beside anything else on the machine: a
 * process group of its own, every port moved by a free offset, its own data dir, database and NATS
 * namespace. Shared by the drills that start, stop and use it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { DEV_LITECOIND_OPTIONS, ephemeralPortFloor, FIRST_CHOSEN_PORT, waitForExit, type TestDatabase } from "@chaingate/testing";

/** The stack's default ports (scripts/dev.ts), each moved by the offset. */
export const DEV_BASE_PORTS = {
  gateway: 8080,
  scanner: 8105,
  anvil: 8545,
  tron: 8090,
  litecoind: DEV_LITECOIND_OPTIONS.rpcPort,
  /** The extra EVM chains' Anvils (scripts/dev.ts EXTRA_EVM_CHAINS): chain ids 137 and 56. */
  polygon: 8547,
  bsc: 8548,
  others: [8101, 8102, 8103, 8104, 8106],
};

export interface DevStackProcess {
  child: ChildProcess;
  /** Everything the stack printed so far. */
  output(): string;
}

function isFree(candidate: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer().once("error", () => resolve(false));
    server.listen(candidate, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * An offset under which every port of the stack is free now. Every moved port stays below the
 * kernel's ephemeral range: an outgoing connection could otherwise take one between this check and
 * the service's bind (CI saw xpub refused with EADDRINUSE on 47502).
 */
export async function freeDevPortOffset(): Promise<number> {
  const bases = [
    DEV_BASE_PORTS.gateway,
    DEV_BASE_PORTS.scanner,
    DEV_BASE_PORTS.anvil,
    DEV_BASE_PORTS.tron,
    DEV_BASE_PORTS.litecoind,
    DEV_BASE_PORTS.polygon,
    DEV_BASE_PORTS.bsc,
    ...DEV_BASE_PORTS.others,
  ];
  const step = 50;
  const lowest = Math.ceil((FIRST_CHOSEN_PORT - Math.min(...bases)) / step) * step;
  const choices = Math.floor((ephemeralPortFloor() - Math.max(...bases) - lowest) / step);
  if (choices < 10) throw new Error("the ephemeral port range starts too low to move the dev stack below it");
  for (;;) {
    const candidate = lowest + Math.floor(Math.random() * choices) * step;
    if ((await Promise.all(bases.map((base) => isFree(base + candidate)))).every(Boolean)) return candidate;
  }
}

/** Reads until `accept` takes the value (read failures count as not yet), or throws with the stack's last output. */
export async function pollDevStack<T>(
  stack: DevStackProcess | undefined,
  description: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}\n${stack?.output().slice(-4_000) ?? ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Spawns the stack's command in a process group of its own (so Ctrl-C can reach all of it), collecting its output. */
export function spawnDevStack(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): DevStackProcess {
  const child = spawn(command, args, { cwd: options.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: options.env });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return { child, output: () => output };
}

export function devStackGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ctrl-C: SIGINT to the whole group, then true once the stack and every process of its group are gone. */
export async function interruptDevStack(stack: DevStackProcess, timeoutMs: number): Promise<boolean> {
  process.kill(-stack.child.pid!, "SIGINT");
  if (!(await waitForExit(stack.child, timeoutMs))) return false;
  await pollDevStack(
    stack,
    "the group's processes to end",
    async () => devStackGroupAlive(stack.child.pid!),
    (alive) => !alive,
    timeoutMs,
  );
  return true;
}

/** Where a test file's dev stack lives, apart from anything else on the machine (the drills' `devStackPlace` fixture). */
export interface DevStackPlace {
  readonly database: TestDatabase;
  readonly dataDir: string;
  /** Added to every port of the stack. */
  readonly offset: number;
  readonly namespace: string;
  /** The stack running now, if any: its whole group is killed after the file's tests. */
  stack: DevStackProcess | undefined;
  /** The variables that start a stack here: its database, NATS namespace, port offset and data dir. */
  env(): Record<string, string>;
}

/**
 * A place for a dev stack over `database` (the file's) and `namespace` (its bus's): a data dir and
 * a free port offset of its own. `close` kills the stack's whole group if it still runs and removes
 * the data dir; the database is the caller's.
 */
export async function openDevStackPlace(database: TestDatabase, namespace: string): Promise<DevStackPlace & { close(): Promise<void> }> {
  const [dataDir, offset] = await Promise.all([mkdtemp(path.join(os.tmpdir(), "chaingate-dev-stack-")), freeDevPortOffset()]);
  const place = {
    database,
    dataDir,
    offset,
    namespace,
    stack: undefined as DevStackProcess | undefined,
    env: () => ({
      DATABASE_URL: database.connectionString,
      NATS_NAMESPACE: namespace,
      DEV_PORT_OFFSET: String(offset),
      DEV_DATA_DIR: dataDir,
    }),
    async close() {
      if (place.stack && devStackGroupAlive(place.stack.child.pid!)) process.kill(-place.stack.child.pid!, "SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return place;
}
