/**
 * The telemetry preload wraps only the modules its instrumentations name (import-in-the-middle's
 * include list): a service process must still export the spans of express and pg, which services
 * load with `import` (as ES modules see them), beside its HTTP server span.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, startOtlpCollector, waitForHttp, type OtlpCollector } from "@chaingate/testing";
import { fileResource, integrationTest } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));

const it = integrationTest.extend<{ collector: OtlpCollector }>({
  collector: fileResource(startOtlpCollector, (collector) => collector.close()),
});

describe("the xpub service's spans", () => {
  it("include its HTTP server span, express's handler and pg's queries for a request that reads the database", async ({
    database,
    collector,
  }) => {
    const port = await freePort();
    const service = spawnService(SERVICE_DIR, {
      PORT: String(port),
      DATABASE_URL: database.connectionString,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "50",
      BITCOIN_NETWORK: "litecoin-regtest",
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/btc/xpub`, { headers: { "x-chaingate-account-id": "1" } });
      expect(answer.status).toBe(200);
      const names = () => collector.spans.map((span) => span.name);
      const deadline = Date.now() + 10_000;
      while (!(names().includes("request handler") && names().some((name) => name.startsWith("pg.query"))) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(names()).toContain("GET /api/v1/btc/xpub");
      expect(names()).toContain("request handler");
      expect(names().some((name) => name.startsWith("pg.query:SELECT"))).toBe(true);
    } finally {
      await service.stop();
    }
  });
});
