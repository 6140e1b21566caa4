/** Runs the operator CLI (`xpub-admin …`) as the operator does, in its own process, on a test database. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const SERVICE_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface XpubAdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Resolves with the CLI's output, whether it exited 0 or not. */
export async function runXpubAdmin(databaseUrl: string, ...args: string[]): Promise<XpubAdminRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["src/admin/cli.ts", ...args], {
      cwd: SERVICE_DIR,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as XpubAdminRun;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
