/**
 * The README's commands, run as written by a new user on a machine whose PATH has no pnpm (and
 * only the machine's own Node): `bash scripts/dev.sh` starts the stack and prints a dev key; the
 * README's curl with that key answers; the README's operator commands (`bash scripts/pnpm.sh …`)
 * create an account and a key that the gateway accepts. The commands are read from README.md, so
 * the test fails when the README and what works part ways. Only the stack's port offset, data dir,
 * database and NATS namespace are the drill's own (a stack beside anything else on the machine).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect } from "vitest";
import { DEV_BASE_PORTS, interruptDevStack, pollDevStack, spawnDevStack } from "./dev-stack-process.ts";
import { drillTest as test } from "./testing/drill-fixtures.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The bootstrap (a no-op install when the workspace is installed), the console build and every service. */
const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 60_000;

/** The machine's PATH without any directory that holds a pnpm (the bootstrap's Node 22 folder among them). */
function pathWithoutPnpm(): string {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir && !existsSync(path.join(dir, "pnpm")));
  if (!dirs.some((dir) => existsSync(path.join(dir, "node")))) throw new Error("no node left on PATH once pnpm's folders are removed");
  return dirs.join(path.delimiter);
}

/** The commands of the README's first fenced `sh` block after `marker`, comments and blank lines dropped. */
function readmeCommands(marker: string): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const from = readme.indexOf(marker);
  expect(from, `README.md has no "${marker}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from))![1]!;
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

/** What a user's shell would do with the line: `bash -c`, in the repository, with the stack's own variables. */
function shell(line: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile("bash", ["-c", line], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${line}\n${String(error)}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

describe("the README's commands, as written, on a machine whose PATH has no pnpm", () => {
  test(
    "dev.sh prints a working key; the README's curl and operator commands work",
    async ({ devStackPlace: place }) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: pathWithoutPnpm(),
        ...place.env(),
      };
      const gatewayPort = String(DEV_BASE_PORTS.gateway + place.offset);
      const onThisStack = (line: string) => line.replaceAll(":8080", `:${gatewayPort}`);

      const [start] = readmeCommands("## The two commands");
      expect(start).toBe("bash scripts/dev.sh");
      const stack = spawnDevStack("bash", ["-c", start!], { cwd: ROOT, env });
      place.stack = stack;
      const key = await pollDevStack(
        stack,
        "the dev key",
        async () => /API key \(dev\)\s+(\S+)/.exec(stack.output())?.[1],
        (printed) => printed !== undefined && printed !== "none:",
        START_TIMEOUT_MS,
      );
      expect(stack.output()).toMatch(new RegExp(`console:\\s+http://127\\.0\\.0\\.1:${gatewayPort}/console`));

      const [tryIt] = readmeCommands("Once the gateway is ready");
      expect(tryIt).toContain("<the printed key>");
      const health = await shell(`${onThisStack(tryIt!).replace("<the printed key>", key!)} -fsS`, env);
      expect(JSON.parse(health)).toMatchObject({ status: expect.any(String) });

      const [createAccount, createKey] = readmeCommands("More accounts and keys");
      // The dev account is the stack's first (1); the README's "Acme" the second.
      expect((await shell(createAccount!, env)).trim()).toBe("2");
      const acmeKey = (await shell(createKey!, env)).trim().split("\n").at(-1)!;
      const answer = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/keys`, { headers: { "x-api-key": acmeKey } });
      expect(answer.status).toBe(200);

      expect(await interruptDevStack(stack, STOP_TIMEOUT_MS)).toBe(true);
      place.stack = undefined;
    },
    START_TIMEOUT_MS + 3 * STOP_TIMEOUT_MS,
  );
});
