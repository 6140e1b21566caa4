/**
 * The delivery service as a process of its own (its `start` script) over a test database and bus,
 * for tests that kill it or run several replicas; webhooks may point at a loopback receiver.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, waitForHttp, type SpawnedService, type TestBus } from "@chaingate/testing";

const SERVICE_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface DeliveryProcess {
  url: string;
  port: number;
  child: SpawnedService;
}

/** Started on `port` (a free one when absent: pass the old one to restart in its place) and answering. */
export async function startDeliveryProcess(databaseUrl: string, bus: TestBus, port?: number): Promise<DeliveryProcess> {
  const listenOn = port ?? (await freePort());
  const child = spawnService(SERVICE_DIR, {
    PORT: String(listenOn),
    DATABASE_URL: databaseUrl,
    ...bus.env,
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_TIMEOUT_MS: "2000",
    DELIVERY_LEASE_MARGIN_MS: "500",
    LOG_LEVEL: "warn",
  });
  await waitForHttp(`http://127.0.0.1:${listenOn}/healthz`, 30_000);
  return { url: `http://127.0.0.1:${listenOn}`, port: listenOn, child };
}
