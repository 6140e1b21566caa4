/**
 * A Postgres server of a test's own (initdb into a temp dir, its own loopback port) that the test
 * may restart, stop or kill -9, so fault drills never disturb the machine's shared database or
 * the tests running beside them. initdb refuses to run as root: as root, the server runs as the
 * `postgres` user (spawned with its uid, so this process stays its parent and reaps it: a killed
 * postmaster left as a zombie would block the restart with "lock file already exists").
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startPrivateServerProcess, type PrivateServerProcess } from "./private-server-process.ts";
import { freePort } from "./processes.ts";

const START_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 50;

/**
 * `stop` and `restart` are a fast shutdown (SIGINT: every session ended, as `pg_ctl restart -m fast`,
 * what a managed database's minor-version upgrade does); `kill` reaches the postmaster and every
 * backend, and `start` after it recovers from the WAL.
 */
export type PrivatePostgres = PrivateServerProcess;

/** Directory of the Debian server binaries (initdb, pg_ctl, postgres). */
function serverBinaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = path.join(root, version, "bin");
    if (existsSync(path.join(dir, "initdb"))) return dir;
  }
  throw new Error("No PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)");
}

/** As root, the `postgres` account's ids; otherwise run as ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

function runOrThrow(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: "utf8", ...serverUser() });
  if (result.status !== 0) throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), "chaingate-pg-"));
  const dataDir = path.join(dir, "data");
  const user = serverUser();
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  runOrThrow(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const logPath = path.join(dir, "server.log");
  const argv = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    `unix_socket_directories=${dir}`,
    "-c",
    "fsync=off",
    "-c",
    "max_connections=200",
  ];
  return startPrivateServerProcess({
    url,
    port,
    dir,
    spawn() {
      // Its own process group: a kill reaches the postmaster and every backend at once.
      const log = openSync(logPath, "a");
      const child = spawn(path.join(bin, "postgres"), argv, { stdio: ["ignore", log, log], detached: true, ...user });
      closeSync(log);
      return child;
    },
    async ready(child) {
      // A server that exits at start (its port or shared memory still held) must fail at once, with its reason.
      const exited = new Promise<never>((_, reject) =>
        child.once("exit", (code) =>
          reject(new Error(`private Postgres exited (${code}) at start:\n${readFileSync(logPath, "utf8").slice(-2_000)}`)),
        ),
      );
      await Promise.race([waitUntilAccepting(url), exited]);
    },
    stopSignal: "SIGINT", // fast shutdown: terminates every session, as pg_ctl restart -m fast
    async crash(child) {
      // Backends outlive a killed postmaster for a moment: kill the whole group, as a crash would.
      process.kill(-child.pid!, "SIGKILL");
      // Under load a killed backend can linger for a moment still attached to the shared memory,
      // and a postmaster started then refuses to run ("pre-existing shared memory block").
      await waitForGroupGone(child.pid!);
    },
    stopTimeoutMs: START_TIMEOUT_MS,
  });
}

async function waitUntilAccepting(url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("select 1");
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`private Postgres did not accept connections at ${url}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }
}

/** Resolves once no live process (zombies aside) is left in process group `pgid`. */
async function waitForGroupGone(pgid: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  const alive = () =>
    readdirSync("/proc").some((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so read after its ')'.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
        return Number(fields[2]) === pgid && fields[0] !== "Z";
      } catch {
        return false; // exited while we looked
      }
    });
  while (alive()) {
    if (Date.now() > deadline) throw new Error(`processes of the killed Postgres (group ${pgid}) are still running`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
