/**
 * The drills' test fixtures (vitest `test.extend`, see @chaingate/testing's `integrationTest`):
 * the product as a client meets it (notification-stack.ts: every service a real process) over the
 * file's database and node peers, and what several drills share beside it. A file configures the
 * product with `drillTest.scoped({ drillSettings: {...} })` at its top and names the product of the
 * peers it needs; a product that no test names is not started, nor are its peers.
 *
 *   drillTest.scoped({ drillSettings: { scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200" } } });
 *   const it = drillTest;
 *   it("…", async ({ bitcoinProduct: product, matureLitecoind: node }) => { … });
 *
 * A drill whose product needs other peers (a private NATS, a token, fault proxies) extends once
 * more in its own file with a fixture of a name of its own, started with `useNotificationStack`.
 * Fixture names are unique in the repository's extends (vitest 3.2 shares one fixture list
 * between sibling extends: the first of two same-named fixtures wins).
 */
import { startOtlpCollector, type OtlpCollector, type TestDatabase } from "@chaingate/testing";
import { fileResource, integrationTest } from "@chaingate/testing/fixtures";
import { openDevStackPlace, type DevStackPlace } from "../dev-stack-process.ts";
import { startNotificationStack, type NotificationStack, type NotificationStackOptions } from "../notification-stack.ts";

/** Added to the timeout of a test that may be the first to name a product: the peers and services start inside it. */
export const PRODUCT_START_MS = 180_000;

/** How the file's product runs: every setting but the peers, which the product fixture's name chooses. */
export type DrillSettings = Omit<NotificationStackOptions, "databaseUrl" | "natsUrl" | "bitcoin" | "ethereumUrl" | "tronUrl">;

export interface DrillFixtures {
  /** The file's product settings (default: one delivery, one scanner, no xpub, services' defaults). */
  drillSettings: DrillSettings;
  /** A local OTLP receiver the services export their spans to. */
  otlpCollector: OtlpCollector;
  /** The product following the file's mature litecoind, on the shared NATS. */
  bitcoinProduct: NotificationStack;
  /** The product following the file's mature litecoind and Anvil, on the shared NATS. */
  bitcoinEthereumProduct: NotificationStack;
  /**
   * Where the file's dev stack (scripts/dev.ts, with chains of its own) runs: the file's database and
   * bus namespace, a data dir and a free port offset; a stack still running after the file is killed.
   */
  devStackPlace: DevStackPlace;
}

/** Peers and bus of a product: what its fixture's name chose. */
export type ProductPeers = Pick<NotificationStackOptions, "natsUrl" | "bitcoin" | "ethereumUrl" | "tronUrl">;

/** Starts the product over `database` and `peers` with the file's settings, hands it to the test, stops it after. */
export async function useNotificationStack(
  database: TestDatabase,
  peers: ProductPeers,
  settings: DrillSettings,
  use: (product: NotificationStack) => Promise<void>,
): Promise<void> {
  const product = await startNotificationStack({ ...settings, ...peers, databaseUrl: database.connectionString });
  try {
    await use(product);
  } finally {
    await product.stop();
  }
}

export const drillTest = integrationTest.extend<DrillFixtures>({
  drillSettings: [{}, { scope: "file" }],
  otlpCollector: fileResource(startOtlpCollector, (collector) => collector.close()),
  bitcoinProduct: [
    async ({ database, matureLitecoind, drillSettings }, use) =>
      useNotificationStack(database, { bitcoin: matureLitecoind }, drillSettings, use),
    { scope: "file" },
  ],
  bitcoinEthereumProduct: [
    async ({ database, matureLitecoind, anvil, drillSettings }, use) =>
      useNotificationStack(database, { bitcoin: matureLitecoind, ethereumUrl: anvil.url }, drillSettings, use),
    { scope: "file" },
  ],
  devStackPlace: [
    async ({ database, bus }, use) => {
      const place = await openDevStackPlace(database, bus.namespace);
      try {
        await use(place);
      } finally {
        await place.close();
      }
    },
    { scope: "file" },
  ],
});
