/**
 * The test kit's and the services' `testing` entries load outside vitest: the benchmarks and the dev
 * stack (plain Node processes) import them, and vitest itself cannot be imported outside a vitest
 * run. Fixtures (which need vitest) have entries of their own (`@chaingate/testing/fixtures`,
 * `<service>/src/testing/*-fixtures.ts`) that only tests import.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

/** Run from bench/, whose package depends on all of them (as a benchmark imports them). */
const BENCH_DIR = fileURLToPath(new URL("../bench/", import.meta.url));
const ENTRIES = [
  "@chaingate/testing",
  "@chaingate/gateway/testing",
  "@chaingate/delivery/testing",
  "@chaingate/scanner/testing",
  "@chaingate/xpub/testing",
  "@chaingate/tron-devnode",
  "@chaingate/drills/notification-stack",
];

it("every testing entry that benchmarks and the dev stack import loads in a plain Node process", async () => {
  const program = `for (const entry of ${JSON.stringify(ENTRIES)}) await import(entry);`;
  const run = promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], {
    cwd: BENCH_DIR,
    // A vitest worker's environment would let a vitest import pass; a benchmark has none of it.
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST"))),
  });
  await expect(run).resolves.toMatchObject({ stderr: "" });
}, 60_000);
