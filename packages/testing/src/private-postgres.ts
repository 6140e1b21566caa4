/**
 * A Postgres server of a test's own (initdb into a temp dir, its own loopback port) that the test
 * may restart, stop or kill -9, so fault drills never disturb the machine's shared database or
 * the tests running beside them. initdb refuses to run as root: as root, the server runs as the
 * `postgres` user (runuser).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, waitForExit, waitForPort } from "./processes.ts";

const START_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 50;

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: what a managed database's minor-version upgrade does. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown); `start()` brings it back on the same port and data. */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and every backend: a crash. `start()` recovers from the WAL. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  destroy(): Promise<void>;
}

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

function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function runOrThrow(command: string, args: string[]): void {
  const [file, argv] = asServerUser(command, args);
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), "chaingate-pg-"));
  const dataDir = path.join(dir, "data");
  if (process.getuid?.() === 0) {
    chownSync(dir, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout), Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout));
    chmodSync(dir, 0o700);
  }
  runOrThrow(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;

  async function start(): Promise<void> {
    const [file, argv] = asServerUser(path.join(bin, "postgres"), [
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
    ]);
    // Its own process group: a kill reaches the postmaster and every backend at once.
    server = spawn(file, argv, { stdio: "ignore", detached: true });
    await waitUntilAccepting(url);
  }

  async function stop(signal: NodeJS.Signals): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    if (signal === "SIGKILL") {
      // Backends outlive a killed postmaster for a moment: kill the whole group, as a crash would.
      process.kill(-child.pid!, "SIGKILL");
    } else {
      // The postmaster itself (runuser, when used, does not pass SIGINT on).
      const postmasterPid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(postmasterPid, signal);
    }
    await waitForExit(child, START_TIMEOUT_MS);
    await waitForPort(port, false);
  }

  await start();
  return {
    url,
    port,
    async restart() {
      await stop("SIGINT"); // fast shutdown: terminates every session, as pg_ctl restart -m fast
      await start();
    },
    stop: () => stop("SIGINT"),
    kill: () => stop("SIGKILL"),
    start,
    async destroy() {
      await stop("SIGINT");
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
