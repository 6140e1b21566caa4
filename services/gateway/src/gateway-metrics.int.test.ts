import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";

// The stand-in upstream answers every call 200 {} (the fixture's default).
gatewayTest.scoped({ gatewaySettings: { METRICS_PORT: "0" } });
const it = gatewayTest;

describe("gateway metrics", () => {
  it("counts API requests by group and status and key lookups by how they were answered, on the metrics port only", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": "A".repeat(40) } })).status).toBe(401);
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404); // never on the public port

    const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
    expect(text).toContain('gateway_api_requests_total{group="btc",status="200"} 3');
    expect(text).toContain('gateway_api_requests_total{group="btc",status="401"} 1');
    expect(text).toMatch(/gateway_api_request_duration_seconds_count\{group="btc"\} 4/);
    const lookups = (result: string) => Number(new RegExp(`gateway_key_lookups_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect(lookups("database") + lookups("bypassed")).toBeGreaterThanOrEqual(2); // the valid key once, the unknown one once
    expect(lookups("cached")).toBeGreaterThanOrEqual(1);
    expect(lookups("cached") + lookups("database") + lookups("bypassed")).toBe(4);
    expect(text).toMatch(/^gateway_process_resident_memory_bytes \d/m);
  });
});
