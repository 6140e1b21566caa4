/** The CLI (`pnpm --filter @chaingate/tron-devnode start`): prints where it listens, serves, stops cleanly on SIGTERM/SIGINT. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
const LISTENING = /listening on (http:\/\/[\d.]+:\d+)/;

function startCli(env: Record<string, string>): {
  url: Promise<string>;
  exit: Promise<number | null>;
  stop: (signal: NodeJS.Signals) => void;
} {
  const child = spawn(process.execPath, ["src/bin/tron-devnode.ts"], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error(`CLI exited before listening: ${output}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { url, exit, stop: (signal) => child.kill(signal) };
}

describe("tron-devnode CLI", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`starts from env, serves the API and exits 0 on ${signal}`, async () => {
      const cli = startCli({ TRON_DEVNODE_HOST: "127.0.0.1", TRON_DEVNODE_PORT: "0", TRON_DEVNODE_BLOCK_INTERVAL_MS: "50" });
      const url = await cli.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const first = (await (await fetch(`${url}/wallet/getnowblock`)).json()) as { block_header: { raw_data: { number: number } } };
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = (await (await fetch(`${url}/wallet/getnowblock`)).json()) as { block_header: { raw_data: { number: number } } };
      expect(later.block_header.raw_data.number).toBeGreaterThan(first.block_header.raw_data.number);
      cli.stop(signal);
      expect(await cli.exit).toBe(0);
    });
  }

  it("takes energy costs from TRON_DEVNODE_ENERGY_COSTS and TRON_DEVNODE_ENERGY_FACTOR, the solid lag from TRON_DEVNODE_SOLID_LAG", async () => {
    const env = { TRON_DEVNODE_PORT: "0", TRON_DEVNODE_BLOCK_INTERVAL_MS: "0", TRON_DEVNODE_SOLID_LAG: "1" };
    const cli = startCli({ ...env, TRON_DEVNODE_ENERGY_COSTS: '{"transfer":20000}', TRON_DEVNODE_ENERGY_FACTOR: "0" });
    const url = await cli.url;
    const parameter = "0".repeat(24) + "839c6ba5028f102371864857b99c73bde103da3e" + "1".padStart(64, "0");
    const body = {
      owner_address: "412acde11fc43f962ab418ae9ce0a1abbc1970629f",
      contract_address: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
      function_selector: "transfer(address,uint256)",
      parameter,
    };
    const estimate = (await (await fetch(`${url}/wallet/estimateenergy`, { method: "POST", body: JSON.stringify(body) })).json()) as {
      energy_required: number;
    };
    expect(estimate.energy_required).toBe(20_000);
    const solid = (await (await fetch(`${url}/walletsolidity/getnowblock`)).json()) as { blockID: string };
    const genesis = (await (await fetch(`${url}/wallet/getblockbynum?num=0`)).json()) as { blockID: string };
    expect(solid.blockID).toBe(genesis.blockID); // head 1, one block of lag
    cli.stop("SIGTERM");
    expect(await cli.exit).toBe(0);
  });

  for (const [name, value] of [
    ["TRON_DEVNODE_ENERGY_COSTS", "[1]"],
    ["TRON_DEVNODE_ENERGY_COSTS", '{"transfer":-5}'],
    ["TRON_DEVNODE_ENERGY_FACTOR", "lots"],
    ["TRON_DEVNODE_SOLID_LAG", "-1"],
  ] as const) {
    it(`refuses ${name}=${value}`, async () => {
      const cli = startCli({ TRON_DEVNODE_PORT: "0", [name]: value });
      cli.url.catch(() => undefined);
      expect(await cli.exit).not.toBe(0);
    });
  }

  it("refuses a malformed port instead of guessing", async () => {
    const cli = startCli({ TRON_DEVNODE_PORT: "eighty" });
    cli.url.catch(() => undefined);
    expect(await cli.exit).not.toBe(0);
  });
});
