/** The CLI (`pnpm --filter @chaingate/tron-devnode start`): prints where it listens, serves, stops cleanly on SIGTERM/SIGINT. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
const LISTENING = /listening on (http:\/\/[\d.]+:\d+)/;

function startCli(env: Record<string, string>): { url: Promise<string>; exit: Promise<number | null>; stop: (signal: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/bin/tron-devnode.ts"], { cwd: PACKAGE_DIR, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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

  it("refuses a malformed port instead of guessing", async () => {
    const cli = startCli({ TRON_DEVNODE_PORT: "eighty" });
    cli.url.catch(() => undefined);
    expect(await cli.exit).not.toBe(0);
  });
});
