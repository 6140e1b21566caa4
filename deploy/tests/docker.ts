/**
 * Docker for the image tests: whether an engine answers here (the tests skip, saying why, when it
 * does not; scripts/ensure-docker.sh installs and starts one), and small wrappers around the CLI.
 */
import { spawn, spawnSync } from "node:child_process";
import { repoRoot } from "./kubernetes-tools.ts";

export interface DockerAvailability {
  ok: boolean;
  /** Why the image tests are skipped, when they are. */
  reason: string;
}

function commandAnswers(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: "ignore", timeout: 15_000 });
  return result.status === 0;
}

export function dockerAvailability(): DockerAvailability {
  if (!commandAnswers("docker", ["info"])) {
    return { ok: false, reason: "no Docker engine answers `docker info` (bash scripts/ensure-docker.sh installs and starts one as root)" };
  }
  if (!commandAnswers("docker-compose", ["version"]))
    return { ok: false, reason: "docker-compose is not installed (bash scripts/ensure-docker.sh)" };
  const localBase = commandAnswers("docker", ["image", "inspect", "chaingate-local/debian:bookworm"]);
  if (!localBase && !process.env.NODE_IMAGE && !commandAnswers("sh", ["-c", "command -v debootstrap"])) {
    return { ok: false, reason: "no base image can be made: debootstrap is not installed and NODE_IMAGE is not set" };
  }
  return { ok: true, reason: "" };
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root without blocking the event loop; rejects on a non-zero exit. */
export function exec(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; allowFailure?: boolean } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = options.timeoutMs ? setTimeout(() => child.kill("SIGTERM"), options.timeoutMs) : undefined;
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      const result = { status, stdout, stderr };
      if (status !== 0 && !options.allowFailure) {
        reject(new Error(`${command} ${args.join(" ")} exited ${status}:\n${stderr.slice(-4000)}${stdout.slice(-2000)}`));
      } else {
        resolve(result);
      }
    });
  });
}
