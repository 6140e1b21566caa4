/**
 * The images and docker-compose.yml, end to end: scripts/build-images.sh builds the local base
 * images and every service image from deploy/Dockerfile; docker-compose starts Postgres, NATS, the
 * dev Bitcoin node (profile devnodes) and every built service from those images; the admin CLI
 * inside the gateway image creates an account and a key; requests through the published gateway
 * port reach the btc-proxy (and the node behind it), xpub, and the eth-proxy's EVM chains of
 * EVM_CHAINS (two more Anvils of the devnodes profile). Skipped, saying why, where no Docker
 * engine can run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@chaingate/testing";
import { dockerAvailability, exec } from "./docker.ts";
import { repoRoot } from "./kubernetes-tools.ts";

const docker = dockerAvailability();
if (!docker.ok) process.stderr.write(`[deploy] compose stack test skipped: ${docker.reason}\n`);

const TAG = "compose-test";
const PROJECT = `chaingate-compose-test-${process.pid}`;
/** BIP84's test vector: the account key of "abandon … about" and its first receiving address. */
const BIP84_ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
const BIP84_FIRST_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/**
 * Images are built from the committed tree (git archive HEAD, or CHAINGATE_IMAGE_REF), as CI builds
 * them, whatever uncommitted edits the working tree holds; the services run are those with a committed src/main.ts.
 */
const REF = process.env.CHAINGATE_IMAGE_REF || "HEAD";
const services = ["gateway", "btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery", "scanner"].filter(
  (name) => spawnSync("git", ["cat-file", "-e", `${REF}:services/${name}/src/main.ts`], { cwd: repoRoot }).status === 0,
);
const needsAllDevnodes = services.some((name) => ["eth-proxy", "trx-proxy", "scanner"].includes(name));

let gatewayPort = 0;
let composeEnv: NodeJS.ProcessEnv = {};

function compose(args: string[], options: { timeoutMs?: number; allowFailure?: boolean } = {}) {
  return exec("docker-compose", ["-p", PROJECT, "--profile", "devnodes", ...args], {
    env: composeEnv,
    timeoutMs: options.timeoutMs ?? 120_000,
    allowFailure: options.allowFailure,
  });
}

async function waitUntilHealthy(containers: string[], deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let states = "";
  while (Date.now() < deadline) {
    const ids = (await compose(["ps", "-q", ...containers])).stdout.split("\n").filter(Boolean);
    const inspected = await exec("docker", [
      "inspect",
      "--format",
      "{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}",
      ...ids,
    ]);
    states = inspected.stdout.trim();
    const lines = states.split("\n");
    if (lines.length === containers.length && lines.every((line) => line.endsWith(" healthy"))) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // What each health check printed (and when): a check that timed out reads differently from one that got an error.
  const ids = (await compose(["ps", "-q", ...containers])).stdout.split("\n").filter(Boolean);
  const checks = await exec(
    "docker",
    ["inspect", "--format", "{{.Name}}{{range .State.Health.Log}} [{{.Start}} exit {{.ExitCode}}: {{.Output}}]{{end}}", ...ids],
    { allowFailure: true },
  );
  const logs = await compose(["logs", "--tail=30", ...containers], { allowFailure: true });
  throw new Error(`not healthy within ${deadlineMs} ms:\n${states}\nhealth checks:\n${checks.stdout}\n${logs.stdout.slice(-6000)}`);
}

function gateway(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${gatewayPort}${pathname}`, init);
}

/** The devnodes profile's node peers besides litecoind, and its two more EVM chains as an operator adds them (docs/chains.md). */
const DEVNODES = ["anvil", "anvil-polygon", "anvil-bsc", "tron-devnode"];
const DEVNODE_EVM_CHAINS = JSON.stringify([
  { name: "polygon", rpc_urls: ["http://anvil-polygon:8545"] },
  { name: "bsc", rpc_urls: ["http://anvil-bsc:8545"] },
]);

/** Through the gateway: the chains the deployment lists, and each devnodes EVM chain's own chain id. */
async function servesConfiguredEvmChains(apiKey: string): Promise<void> {
  const chains = await gateway("/api/v1/chains", { headers: { "X-API-Key": apiKey } });
  expect(((await chains.json()) as { data: Array<{ coin: string }> }).data.map((chain) => chain.coin)).toEqual([
    "BTC",
    "ETH",
    "TRX",
    "POLYGON",
    "BSC",
  ]);
  for (const [name, chainId] of [
    ["polygon", "0x89"],
    ["bsc", "0x38"],
  ]) {
    const answer = await gateway(`/api/v1/${name}/jsonrpc`, {
      method: "POST",
      headers: { "X-API-Key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: chainId });
  }
}

describe.skipIf(!docker.ok)(`images and docker-compose${docker.ok ? "" : ` (skipped: ${docker.reason})`}`, () => {
  let apiKey = "";

  beforeAll(async () => {
    // Cold: debootstrap, the bases and a registry fetch of the lockfile (minutes); warm: only what changed.
    await exec("bash", ["scripts/build-images.sh", `--ref=${REF}`, ...(needsAllDevnodes ? ["--devnodes"] : []), ...services], {
      env: { CHAINGATE_IMAGE_TAG: TAG },
      timeoutMs: 14 * 60_000,
    });
    gatewayPort = await freePort();
    composeEnv = {
      CHAINGATE_IMAGE_TAG: TAG,
      POSTGRES_IMAGE: "chaingate-local/postgres:15",
      NATS_IMAGE: "chaingate-local/nats:2.9",
      GATEWAY_PORT: String(gatewayPort),
      BITCOIN_NETWORK: "mainnet",
      EVM_CHAINS: DEVNODE_EVM_CHAINS,
    };
    const started = ["postgres", "nats", "litecoind", ...(needsAllDevnodes ? DEVNODES : []), ...services];
    await compose(["up", "-d", "--no-build", ...started]);
    // Generous: on a loaded 2-core CI machine the last services to start (after Postgres and NATS) took over 100 s to pass.
    await waitUntilHealthy(started, 240_000);

    const account = (
      await compose(["exec", "-T", "gateway", "node", "dist/admin.js", "accounts", "create", "--name", "compose test"])
    ).stdout.trim();
    expect(account).toMatch(/^\d+$/);
    const created = await compose(["exec", "-T", "gateway", "node", "dist/admin.js", "keys", "create", "--account", account]);
    apiKey = created.stdout.trim().split("\n").at(-1)!;
    expect(apiKey.length).toBeGreaterThan(20);
  }, 16 * 60_000);

  afterAll(async () => {
    if (composeEnv.GATEWAY_PORT) await compose(["down", "-v", "--remove-orphans", "--timeout", "5"], { allowFailure: true });
  }, 120_000);

  it("answers through the gateway: the Bitcoin node behind the btc-proxy, xpub's address issuing, and 401 without a key", async () => {
    const health = await gateway("/api/v1/btc/health", { headers: { "X-API-Key": apiKey } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", chain: "regtest" });

    const registered = await gateway("/api/v1/btc/xpub", {
      method: "POST",
      headers: { "X-API-Key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ xpub: BIP84_ZPUB }),
    });
    expect(registered.status).toBe(201);
    const { id } = (await registered.json()) as { id: number };
    const issued = await gateway(`/api/v1/btc/xpub/${id}/address`, { method: "POST", headers: { "X-API-Key": apiKey } });
    expect(issued.status).toBe(201);
    expect(await issued.json()).toEqual({ address: BIP84_FIRST_ADDRESS, index: 0, path: "m/84'/0'/0'/0/0" });

    const anonymous = await gateway("/api/v1/btc/health");
    expect(anonymous.status).toBe(401);
  });

  it.skipIf(!services.includes("eth-proxy"))("serves the EVM chains of EVM_CHAINS through the gateway, chain ids checked", () =>
    servesConfiguredEvmChains(apiKey),
  );

  it("publishes the gateway's port alone: internal services have none on the host", async () => {
    expect((await compose(["port", "gateway", "8080"])).stdout.trim()).toBe(`0.0.0.0:${gatewayPort}`);
    for (const name of services.filter((s) => s !== "gateway")) {
      const port = await compose(["port", name, "8080"], { allowFailure: true });
      expect(port.stdout.trim(), `${name} publishes a port`).toBe("");
    }
  });

  it("builds service images that run compiled JavaScript as a non-root user, with production dependencies only", async () => {
    for (const name of services) {
      const image = `chaingate/${name}:${TAG}`;
      const config = JSON.parse((await exec("docker", ["image", "inspect", "--format", "{{json .Config}}", image])).stdout) as {
        User: string;
        Cmd: string[];
        Healthcheck?: { Test: string[] };
      };
      expect(config.User, image).toBe("1000:1000");
      expect(config.Cmd).toEqual(["sh", "dist/start.sh"]);
      expect(config.Healthcheck?.Test.join(" ")).toContain("/healthz");
      const listing = await exec("docker", [
        "run",
        "--rm",
        "--entrypoint",
        "sh",
        image,
        "-c",
        "ls -A /app; echo ---; ls /app/node_modules /app/node_modules/@* | grep -E '^(@chaingate|tsx|typescript|vitest|testcontainers|hardhat|esbuild)$' || true; echo ---; cat dist/start.sh",
      ]);
      const [top, devOnly, start] = listing.stdout.split("---\n");
      expect(top!.split("\n").filter(Boolean).sort(), `${image}: /app`).toEqual(["dist", "node_modules", "package.json", "pnpm-lock.yaml"]);
      expect(devOnly!.trim(), `${image}: dev-only packages`).toBe("");
      expect(start).toMatch(/exec node .*--import \.\/dist\/telemetry\.js dist\/main\.js/);
      expect(start).not.toContain("tsx");
    }
  });

  it("sends no installed dependencies, build output, VCS data or local chain data into a build (.dockerignore)", async () => {
    const excluded = [".git", ".tmp", "node_modules", "services/gateway/node_modules", "services/gateway/dist"];
    const kept = ["pnpm-lock.yaml", "services/gateway/src/main.ts", "deploy/Dockerfile"];
    // Every entry must exist for the check below to mean something: a clean clone has no build
    // output yet, so a stand-in is made (and removed afterwards).
    const madeHere = excluded.filter((entry) => !existsSync(path.join(repoRoot, entry)));
    for (const entry of madeHere) mkdirSync(path.join(repoRoot, entry), { recursive: true });
    for (const entry of [...excluded, ...kept]) expect(existsSync(path.join(repoRoot, entry)), entry).toBe(true);
    const dir = mkdtempSync(path.join(os.tmpdir(), "chaingate-context-"));
    try {
      const dockerfile = path.join(dir, "Dockerfile");
      writeFileSync(dockerfile, `FROM ${process.env.NODE_IMAGE ?? "chaingate-local/node:22"}\nCOPY . /context\n`);
      const image = "chaingate-test/build-context";
      await exec("docker", ["build", "-q", "-f", dockerfile, "-t", image, "."], { env: { DOCKER_BUILDKIT: "0" }, timeoutMs: 120_000 });
      const check = [...excluded, ...kept].map((entry) => `[ -e "/context/${entry}" ] && echo "${entry}"`).join("; ");
      const present = (await exec("docker", ["run", "--rm", image, "sh", "-c", `${check}; true`])).stdout.split("\n").filter(Boolean);
      expect(present.sort()).toEqual([...kept].sort());
      await exec("docker", ["rmi", image], { allowFailure: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      for (const entry of madeHere) rmSync(path.join(repoRoot, entry), { recursive: true, force: true });
    }
  });
});
