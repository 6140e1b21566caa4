import { spawn } from "node:child_process";
import http from "node:http";
import { freePort, startOtlpCollector } from "@chaingate/testing";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const APP = fileURLToPath(new URL("./fixtures/traced-app.ts", import.meta.url));

const startCollector = startOtlpCollector;

async function runTracedApp(env: Record<string, string>, preload: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", preload, APP], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, PORT: String(port), OTEL_SERVICE_NAME: "traced-app", OTEL_BSP_SCHEDULE_DELAY: "50", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.on("data", (chunk) => String(chunk).includes("ready") && resolve()));
  return {
    get: (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/`, { headers }),
    stop: () => new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.kill("SIGTERM"))),
  };
}

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("telemetry preload", () => {
  it("exports the service's HTTP spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set, continuing the caller's trace", async () => {
    const collector = await startCollector();
    const app = await runTracedApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, "@chaingate/telemetry/register");
    try {
      expect((await app.get({ traceparent: TRACEPARENT })).status).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!collector.spans.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(collector.spans).toContainEqual(
        expect.objectContaining({ service: "traced-app", traceId: "0af7651916cd43dd8448eb211c80319c" }),
      );
    } finally {
      await app.stop();
      await collector.close();
    }
  });

  it("exports the last spans when the service is stopped with SIGTERM (its graceful shutdown flushes them)", async () => {
    const collector = await startCollector();
    // Spans wait in the batch for a minute: only the flush on shutdown can send them.
    const app = await runTracedApp(
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "60000" },
      "@chaingate/telemetry/register",
    );
    try {
      expect((await app.get({ traceparent: TRACEPARENT })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(collector.spans).toEqual([]);
    } finally {
      await app.stop();
    }
    expect(collector.spans).toContainEqual(expect.objectContaining({ service: "traced-app", traceId: "0af7651916cd43dd8448eb211c80319c" }));
    await collector.close();
  });

  it("exports nothing when no endpoint is set (not even to the default localhost:4318)", async () => {
    // A collector at the SDK's default address would see any unasked-for export.
    const probe = http.createServer((_req, res) => res.end());
    const listening = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(4318, "127.0.0.1", () => resolve(true));
    });
    let received = 0;
    probe.on("request", () => received++);
    const app = await runTracedApp({ OTEL_EXPORTER_OTLP_ENDPOINT: "" }, "@chaingate/telemetry/register");
    try {
      expect((await app.get({ traceparent: TRACEPARENT })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await app.stop();
      if (listening) await new Promise((r) => probe.close(r));
    }
    expect(received).toBe(0);
  });
});
