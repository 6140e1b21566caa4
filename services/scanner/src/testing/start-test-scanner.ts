/** A scanner service in this process over a test's database and a recorder's NATS namespace. */
import { silentLogger } from "@chaingate/testing";
import { scannerConfigSchema } from "../config.ts";
import { createScannerService, type ScannerService } from "../create-scanner-service.ts";

/**
 * Starts a scanner polling every 100 ms that stores in `database` and publishes where `recorder`
 * listens, following the chains `env` gives a node for (e.g. `{ TRON_NODE_URL }`); `env` may
 * override any setting.
 */
export async function startTestScanner(
  database: { connectionString: string },
  recorder: { namespace: string; natsUrl?: string },
  env: Record<string, string | undefined>,
): Promise<ScannerService> {
  const config = scannerConfigSchema.parse({
    PORT: "0",
    DATABASE_URL: database.connectionString,
    NATS_URL: recorder.natsUrl ?? process.env.NATS_URL,
    NATS_NAMESPACE: recorder.namespace,
    SCANNER_POLL_INTERVAL_MS: "100",
    ...env,
  });
  return createScannerService(config, silentLogger);
}
