/** The package's public API: defaults, options, and the README's genesis table staying true. */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createGenesis, startTronDevnode } from "./index.ts";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

async function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

const defaultPortFree = await portIsFree(8090, "127.0.0.1");

describe("startTronDevnode", () => {
  // Another process on this machine may hold 8090; the default is then not testable here.
  it.skipIf(!defaultPortFree)("listens on 127.0.0.1:8090 by default", async () => {
    const devnode = await startTronDevnode();
    try {
      expect(devnode.url).toBe("http://127.0.0.1:8090");
      const block = (await (await fetch(`${devnode.url}/wallet/getnowblock`)).json()) as { block_header: { raw_data: { number: number } } };
      expect(block.block_header.raw_data.number).toBeGreaterThanOrEqual(1);
    } finally {
      await devnode.close();
    }
  });

  it("produces blocks on its own at blockIntervalMs, and on demand", async () => {
    const devnode = await startTronDevnode({ port: 0, blockIntervalMs: 40 });
    try {
      const first = await devnode.produceBlock();
      await new Promise((resolve) => setTimeout(resolve, 400));
      const later = await devnode.produceBlock();
      expect(later.number - first.number).toBeGreaterThan(1);
      expect(later.blockID.slice(0, 16)).toBe(later.number.toString(16).padStart(16, "0"));
    } finally {
      await devnode.close();
    }
  });

  it("refuses a negative block interval", async () => {
    await expect(startTronDevnode({ port: 0, blockIntervalMs: -1 })).rejects.toThrow(/blockIntervalMs/);
  });
});

describe("README genesis table", () => {
  const genesis = createGenesis();
  for (const [index, account] of [...genesis.accounts.entries(), ["witness", genesis.witness] as const]) {
    it(`documents ${index === "witness" ? "the witness" : `account ${index}`} with its address and key`, () => {
      expect(README).toContain(`| \`${account.base58}\` | \`${account.hex}\` | \`${account.privateKey}\` |`);
    });
  }

  it("documents the token contracts", () => {
    for (const token of genesis.trc20) expect(README).toContain(`| \`${token.base58}\` | \`${token.hex}\` | ${token.decimals} |`);
  });
});
