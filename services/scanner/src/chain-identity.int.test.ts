/**
 * The scanner refuses a node of another chain, loudly, and an operator reset gets it going again:
 * two Hardhat nodes (each start is a chain of its own: Hardhat's genesis carries its start time),
 * the real scanner, Postgres and NATS, and the operator CLI as a process.
 *   - a scanner whose kept blocks came from node A, started against node B, stops ETH: `/readyz`
 *     names it under failures, `scanner_follower_state` says stopped_wrong_chain, the log gives the
 *     command; `scanner-admin reset` makes the running scanner follow B within seconds;
 *   - a reorg below the kept window stops ETH the same way (stopped_reorg_too_deep) until a reset;
 *   - a URL of another chain is refused and named under `degraded` while another serves; when the
 *     right node stops, the chain is reported stopped.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createLogger } from "@chaingate/logger";
import { startHardhat, type HardhatNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import type { EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const RESET_POLL_MS = 200;
/** Added to the first test's timeout: the two Hardhat nodes start inside it. */
const NODES_START_MS = 120_000;

type Readiness = { status: number; body: { failures?: Record<string, string>; degraded?: Record<string, string> } };

/** One scanner at a time over the file's database and bus, restarted by the tests, with what they read from it. */
interface ScannerUnderOperator {
  /** Closes the running scanner, if any, and starts one following `ethRpcUrl`. */
  startScanner(ethRpcUrl: string, settings?: Record<string, string>): Promise<ScannerService>;
  /** What the running scanner logged since it started. */
  logs(): string;
  readiness(): Promise<Readiness>;
  followerState(): Promise<string | undefined>;
  /** The operator CLI as a process, on the file's database. */
  operator(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Mines a block on `node` and waits until the scanner has processed it (its hash: that chain). */
  processesNewBlockOf(node: HardhatNode): Promise<void>;
}

const genesisOf = async (node: HardhatNode) => (await node.rpc<{ hash: string }>("eth_getBlockByNumber", ["0x0", false])).hash;

const it = scannerTest.extend<{ secondHardhat: HardhatNode; scannerUnderOperator: ScannerUnderOperator }>({
  /** A second Hardhat node: a chain of its own, as Hardhat's genesis carries its start time. */
  secondHardhat: [
    async ({ hardhat }, use) => {
      // Two nodes started in the same second are one chain at block 0.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const node = await startHardhat();
      try {
        expect(await genesisOf(node)).not.toBe(await genesisOf(hardhat));
        await use(node);
      } finally {
        await node.stop();
      }
    },
    { scope: "file" },
  ],
  scannerUnderOperator: [
    async ({ database, recorder }, use) => {
      const under = scannerUnderOperator(database, recorder);
      try {
        await use(under);
      } finally {
        await under.close();
      }
    },
    { scope: "file" },
  ],
});

function scannerUnderOperator(
  database: { connectionString: string },
  recorder: EventRecorder & { natsUrl: string },
): ScannerUnderOperator & { close(): Promise<void> } {
  let scanner: ScannerService | undefined;
  let logs = "";
  const readiness = async (): Promise<Readiness> => {
    const response = await fetch(`${scanner!.url}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness["body"] };
  };
  return {
    async startScanner(ethRpcUrl, settings = {}) {
      await scanner?.close();
      logs = "";
      const config = scannerConfigSchema.parse({
        PORT: "0",
        DATABASE_URL: database.connectionString,
        NATS_URL: recorder.natsUrl,
        NATS_NAMESPACE: recorder.namespace,
        ETH_RPC_URL: ethRpcUrl,
        // Hardhat 2 gives no call traces; this file is about the node's identity, not internal transfers.
        ETH_TRACE_MODE: "off",
        SCANNER_POLL_INTERVAL_MS: "100",
        SCANNER_RESET_POLL_MS: String(RESET_POLL_MS),
        ...settings,
      });
      const logger = createLogger({ service: "scanner", level: "info", destination: { write: (line: string) => void (logs += line) } });
      scanner = await createScannerService(config, logger);
      return scanner;
    },
    logs: () => logs,
    readiness,
    async followerState() {
      const text = await (await fetch(`${scanner!.url}/metrics`)).text();
      return /^scanner_follower_state\{chain="eth",state="(\w+)"\} 1$/m.exec(text)?.[1];
    },
    operator: (...args) =>
      promisify(execFile)(process.execPath, ["src/admin/cli.ts", ...args], {
        cwd: SERVICE_DIR,
        env: { ...process.env, DATABASE_URL: database.connectionString },
      }),
    async processesNewBlockOf(node) {
      await node.rpc("evm_mine");
      const block = await node.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      await recorder.waitFor(`block ${block.hash}`, () =>
        recorder.blocks.some((processed) => processed.coin === "ETH" && processed.hash === block.hash),
      );
    },
    close: async () => scanner?.close(),
  };
}

async function eventually<T>(description: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** evm_mine one by one: hardhat_mine's reserved blocks answer a zero parent hash. */
async function mine(node: HardhatNode, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) await node.rpc("evm_mine");
}

/** A fresh scanner is 503 for a moment while it loads the watch feed; ETH's own failure is what counts. */
const ethStopped = (ready: Readiness) => ready.status === 503 && ready.body.failures?.ETH !== undefined;

describe("chain identity", () => {
  it(
    "a node of another chain is refused at start, reported by /readyz, the metric and the log, and the operator reset resumes following",
    async ({
      hardhat: nodeA,
      secondHardhat: nodeB,
      scannerUnderOperator: { startScanner, logs, readiness, followerState, operator, processesNewBlockOf },
    }) => {
      await startScanner(nodeA.url);
      await processesNewBlockOf(nodeA);
      expect(await followerState()).toBe("following");
      await startScanner(nodeB.url);
      const stopped = await eventually("ETH reported stopped", readiness, ethStopped);
      expect(stopped.body.failures?.ETH).toMatch(/^stopped_wrong_chain: ETH: no node URL serves chain id 31337, genesis 0x[0-9a-f]{64}/);
      expect(await followerState()).toBe("stopped_wrong_chain");
      expect(logs()).toContain("Following ETH stopped");
      expect(logs()).toContain("pnpm --silent scanner-admin reset --chain ETH --from tip");

      const { stdout } = await operator("reset", "--chain", "ETH", "--from", "tip");
      expect(stdout).toContain("reset of ETH requested");
      await eventually("ETH following again", readiness, (ready) => ready.status === 200, 10_000);
      expect(await followerState()).toBe("following");
      await processesNewBlockOf(nodeB);
      const status = await operator("status");
      expect(status.stdout).toMatch(new RegExp(`^ETH\\tchain id 31337, genesis ${await genesisOf(nodeB)}\\t\\d+ 0x`, "m"));
    },
    90_000 + NODES_START_MS,
  );

  it("a reorg below the kept window stops the chain loudly until the operator resets it", async ({
    secondHardhat: nodeB,
    scannerUnderOperator: { startScanner, logs, readiness, followerState, operator, processesNewBlockOf },
  }) => {
    await startScanner(nodeB.url, { ETH_REORG_WINDOW: "64" });
    await processesNewBlockOf(nodeB);
    const snapshot = await nodeB.rpc<string>("evm_snapshot");
    // 100 blocks: the fork point falls out of the kept window (64 blocks, pruned every 16).
    await mine(nodeB, 100);
    await processesNewBlockOf(nodeB);
    await nodeB.rpc("evm_revert", [snapshot]);
    // A transaction in the branch's first block: empty blocks re-mined in the same seconds would be the same blocks.
    await nodeB.rpc("eth_sendTransaction", [{ from: nodeB.accounts[0]!.address, to: nodeB.accounts[1]!.address, value: "0x1" }]);
    await mine(nodeB, 110);

    const stopped = await eventually("ETH reported stopped", readiness, ethStopped);
    expect(stopped.body.failures?.ETH).toMatch(/^stopped_reorg_too_deep: ETH: the node's chain no longer contains the processed block/);
    expect(await followerState()).toBe("stopped_reorg_too_deep");
    expect(logs()).toContain("pnpm --silent scanner-admin reset --chain ETH --from tip");

    await operator("reset", "--chain", "ETH", "--from", "tip");
    await eventually("ETH following again", readiness, (ready) => ready.status === 200, 10_000);
    await processesNewBlockOf(nodeB);
  }, 90_000);

  it("a URL of another chain is refused (readyz degraded) while another serves, and the chain stops when none does", async ({
    hardhat: nodeA,
    secondHardhat: nodeB,
    scannerUnderOperator: { startScanner, readiness, followerState, processesNewBlockOf },
  }) => {
    // B is the chain of the kept blocks now; A comes first in the list and is refused.
    await startScanner(`${nodeA.url},${nodeB.url}`);
    await processesNewBlockOf(nodeB);
    const degraded = await eventually("the refused URL reported", readiness, (ready) => ready.body.degraded?.["ETH node"] !== undefined);
    expect(degraded.status).toBe(200);
    expect(degraded.body.degraded?.["ETH node"]).toContain(`${nodeA.url} serves chain id 31337, genesis ${await genesisOf(nodeA)}`);
    expect(await followerState()).toBe("following");

    await nodeB.stop();
    const stopped = await eventually("ETH reported stopped", readiness, ethStopped);
    expect(stopped.body.failures?.ETH).toContain(
      `stopped_wrong_chain: ETH: no node URL of this chain answers (${nodeA.url} serves chain id 31337`,
    );
    expect(await followerState()).toBe("stopped_wrong_chain");
  }, 60_000);
});
