/**
 * `tsx bench/gateway/profile-gateway.ts [seconds] [connections] [--cpu-prof]`: the gateway and the
 * bare hop under the overhead bench's load (a valid key, the same small internal endpoint), each
 * alone, reporting the CPU time each process spent per request (user + system, from /proc): on a
 * shared machine a steadier figure than req/s, which follows whatever else runs. With
 * `--cpu-prof`, also the gateway's self-time summary (summarize-cpu-profile.ts). Not part of
 * `pnpm bench`: a tool for finding where per-request time goes.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, freePort, provideTestInfrastructure, readStartArguments, stopChild, waitForHttp } from "@chaingate/testing";
import { load, ROOT, startScript, stopAll } from "../support/processes.ts";
import { printCpuProfileSummary } from "./summarize-cpu-profile.ts";

const [seconds = 10, connections = 50] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith("--"))
  .map(Number);
const profiling = process.argv.includes("--cpu-prof");
/** Linux reports process CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;

/** User and system CPU time so far of a process and its descendants (tsx runs scripts in a child), in ms. */
function cpuMs(pid: number): { user: number; system: number; faults: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // minflt, utime and stime are fields 10, 14 and 15 of stat; after "pid (comm) " the state is field 3.
  const own = { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS, faults: Number(fields[7]) };
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  return children
    .map(cpuMs)
    .reduce((sum, child) => ({ user: sum.user + child.user, system: sum.system + child.system, faults: sum.faults + child.faults }), own);
}

const infrastructure = await provideTestInfrastructure();
const database = await createTestDatabase(infrastructure.databaseUrl);
const [internalPort, barePort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
const internal = startScript(fileURLToPath(new URL("../support/internal-endpoint.ts", import.meta.url)), { PORT: String(internalPort) });
const bare = startScript(fileURLToPath(new URL("../support/bare-proxy.ts", import.meta.url)), {
  PORT: String(barePort),
  UPSTREAM_URL: `http://127.0.0.1:${internalPort}`,
});
const profileDir = mkdtempSync(`${tmpdir()}/gateway-profile-`);
const serviceDir = `${ROOT}services/gateway`;
const gateway = spawn(
  process.execPath,
  [...(profiling ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...readStartArguments(serviceDir)],
  {
    cwd: serviceDir,
    env: {
      ...process.env,
      PORT: String(gatewayPort),
      DATABASE_URL: database.connectionString,
      BTC_PROXY_URL: `http://127.0.0.1:${internalPort}`,
      // As the overhead bench: metrics counted, the internal token sent, the access log written.
      METRICS_PORT: "0",
      INTERNAL_TOKEN: randomBytes(24).toString("hex"),
      // Settings to try, e.g. GATEWAY_ENV='{"ACCESS_LOG":"false"}'.
      ...(JSON.parse(process.env.GATEWAY_ENV ?? "{}") as Record<string, string>),
    },
    stdio: "ignore",
  },
);
try {
  const path = "/api/v1/btc/health";
  const targets = {
    bare: { url: `http://127.0.0.1:${barePort}${path}`, process: bare },
    gateway: { url: `http://127.0.0.1:${gatewayPort}${path}`, process: gateway },
  };
  await waitForHttp(`http://127.0.0.1:${internalPort}/`);
  for (const { url } of Object.values(targets)) await waitForHttp(url);
  const { key } = await createAccountWithKey(database.connectionString, "profile");
  const headers = { "x-api-key": key, accept: "application/json" };
  for (const [name, target] of Object.entries(targets)) {
    await load(target.url, { connections, durationSeconds: 2, headers });
    const before = cpuMs(target.process.pid!);
    const result = await load(target.url, { connections, durationSeconds: seconds, headers });
    const after = cpuMs(target.process.pid!);
    const requests = result.requestsPerSecond * seconds;
    const [user, system] = [(after.user - before.user) * 1000, (after.system - before.system) * 1000].map((us) => us / requests) as [
      number,
      number,
    ];
    console.log(
      `${name.padEnd(8)} c=${connections}: ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s, ${(user + system).toFixed(1).padStart(6)} µs CPU/request (user ${user.toFixed(1)}, system ${system.toFixed(1)}), ${((after.faults - before.faults) / requests).toFixed(2)} page faults/request, ${result.errors} errors, ${result.non2xx} non-2xx`,
    );
  }
} finally {
  await stopChild(gateway);
  await stopAll([internal, bare]);
  await database.drop();
  await infrastructure.stop();
}
if (profiling) {
  // The main thread's profile; the others are loader-hook workers.
  const [profile] = readdirSync(profileDir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .sort();
  if (!profile) throw new Error(`no profile written in ${profileDir}`);
  console.log(`profile: ${profileDir}/${profile}`);
  printCpuProfileSummary(`${profileDir}/${profile}`);
}
