/** Runs the operator CLI as a real process, the way an operator does (`pnpm --silent admin ...`). */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../admin/cli.ts", import.meta.url));
// tsx is a workspace-root tool.
const TSX = fileURLToPath(new URL("../../../../node_modules/.bin/tsx", import.meta.url));

/** `env` adds to the environment (the `quotas` command reads DELIVERY_URL, XPUB_URL, INTERNAL_TOKEN). */
export async function runAdminCli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(TSX, [CLI, ...args], { env: { ...process.env, ...env, DATABASE_URL: databaseUrl } });
  return stdout;
}

/** Creates an account and a key through the CLI; the key is the last line of stdout. */
export async function createAccountWithKey(databaseUrl: string, name = "test account"): Promise<{ accountId: number; key: string }> {
  const accountId = Number((await runAdminCli(databaseUrl, ["accounts", "create", "--name", name])).trim());
  const key = (await runAdminCli(databaseUrl, ["keys", "create", "--account", String(accountId)])).trim().split("\n").at(-1)!;
  return { accountId, key };
}
