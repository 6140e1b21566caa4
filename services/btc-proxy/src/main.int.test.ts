/**
 * The process as Kubernetes runs it (the package's start script): without INTERNAL_TOKEN it stops
 * at start-up, saying why, instead of serving its internal routes to anyone who reaches the pod; an
 * explicit ALLOW_NO_INTERNAL_TOKEN (the dev stack, tests) lets it start.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, waitForExit, waitForHttp } from "@chaingate/testing";
import { describe, expect, it } from "vitest";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));

describe("btc-proxy's process and INTERNAL_TOKEN", () => {
  it("refuses to start without the token unless told the token is meant to be absent", async () => {
    const refused = spawnService(SERVICE_DIR, { PORT: "0", ALLOW_NO_INTERNAL_TOKEN: "false", BTC_RPC_URL: "http://127.0.0.1:9" });
    expect(await waitForExit(refused.process, 30_000)).toBe(true);
    expect(refused.process.exitCode).toBe(1);
    expect(refused.output()).toMatch(/INTERNAL_TOKEN is not set, so internal routes would accept any request/);

    const port = await freePort();
    const allowed = spawnService(SERVICE_DIR, { PORT: String(port), BTC_RPC_URL: "http://127.0.0.1:9" });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 30_000);
      expect(allowed.process.exitCode).toBeNull();
    } finally {
      await allowed.stop();
    }
  }, 90_000);
});
