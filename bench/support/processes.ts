/** Starting the benchmark's processes and measuring with autocannon. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopChild } from "@chaingate/testing";
import autocannon from "autocannon";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = `${ROOT}node_modules/.bin/tsx`;

export function startScript(path: string, env: Record<string, string>): ChildProcess {
  return spawn(TSX, [path], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Mean time per request at concurrency 1 (1 / rps), in ms. */
  meanMs: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Headers made anew for every request (e.g. a different API key each time). */
  perRequestHeaders?: () => Record<string, string>;
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const { perRequestHeaders } = options;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    ...(perRequestHeaders && {
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...perRequestHeaders() } }) }],
    }),
  });
  const requestsPerSecond = result.requests.total / options.durationSeconds;
  return {
    requestsPerSecond,
    meanMs: (1_000 * options.connections) / requestsPerSecond,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child)));
}
