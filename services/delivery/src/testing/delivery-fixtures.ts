/**
 * The delivery service as test fixtures (vitest `test.extend`, see @chaingate/testing's
 * `integrationTest`): started once per test file over the file's database and bus, when a test
 * first asks for it, and closed after the file.
 *
 *   const it = deliveryTest;
 *   // Settings of the file's own; a file whose webhooks point at the local `receiver` lets loopback through.
 *   deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_TIMEOUT_MS: "2000" } });
 *   it("delivers", async ({ harness }) => { … });
 *
 * A service that must start after something of the file's own (an older schema, an older stream, a
 * peer whose URL it is given), or a second one beside it, is a fixture of the test file with its
 * own name, started with `startTestDelivery(database.connectionString, { ...deliveryEnv, … })`.
 *
 * A file that also loads @chaingate/xpub/testing shares one fixture list with `xpubTest` (vitest 3.2
 * keeps one list for every extend of `integrationTest`): it must not ask for `edge`, which both
 * define, and names an xpub service of its own otherwise than `xpub` (`xpubService`).
 */
import { connectBus, type Bus } from "@chaingate/bus";
import { addressIssued, keyMoved, transferMatched } from "@chaingate/contracts";
import type { Database } from "@chaingate/db";
import { internalEdge, silentLogger, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { fileResource, integrationTest } from "@chaingate/testing/fixtures";
import type { DeliveryService } from "../create-delivery-service.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { createDeliveryHarness, type DeliveryHarness } from "./delivery-harness.ts";
import { startLocalReceiver, type LocalReceiver } from "./local-receiver.ts";
import { openDeliveryDatabase } from "./open-delivery-database.ts";
import { startTestDelivery } from "./start-test-delivery.ts";
import { observeWatchFeed, type WatchFeedObserver } from "./watch-feed-observer.ts";

export interface DeliveryFixtures {
  /** Settings over the service's test defaults, for the whole file (set with `deliveryTest.scoped`). */
  deliverySettings: Record<string, string | undefined>;
  /** What the file's service is started with: the test internal token, the file's bus, then `deliverySettings`. */
  deliveryEnv: Record<string, string | undefined>;
  /**
   * The service over the file's database and bus. A test may close it (to start another over the
   * same database): the file's end closes it only if it is still open.
   */
  delivery: DeliveryService;
  /** Its internal edge, called as the gateway calls it (its answers checked against the OpenAPI document). */
  edge: InternalEdge;
  /**
   * A webhook receiver on 127.0.0.1. Defined after `delivery` (fixtures a test names start in the
   * order they are defined), so it stops first: attempts it never answers end then instead of
   * holding the service's close until their timeout.
   */
  receiver: LocalReceiver;
  /** A connection to the file's bus, with `transfer.matched`'s stream, to publish and consume as the other services do. */
  busConnection: Bus;
  /**
   * The file's watch feed read as the scanner reads it, on a connection that also has the streams of
   * the xpub service's events (`address.issued`, `key.moved`) for tests that publish them by hand.
   */
  watchFeed: WatchFeedObserver;
  /** The delivery's schema, migrated, over the file's database, without the service (for infra and workers). */
  deliveryDb: Database<DeliveryDatabase>;
  /** The service, the receiver and the bus together, with helpers (delivery-harness.ts). */
  harness: DeliveryHarness;
}

export const deliveryTest = integrationTest.extend<DeliveryFixtures>({
  deliverySettings: [{}, { scope: "file" }],
  deliveryEnv: [
    async ({ bus, deliverySettings }, use) => use({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, ...bus.env, ...deliverySettings }),
    { scope: "file" },
  ],
  delivery: [
    async ({ database, deliveryEnv }, use) => {
      const started = await startTestDelivery(database.connectionString, deliveryEnv);
      let closing: Promise<void> | undefined;
      const delivery: DeliveryService = { ...started, close: () => (closing ??= started.close()) };
      try {
        await use(delivery);
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
  edge: [async ({ delivery }, use) => use(internalEdge(delivery)), { scope: "file" }],
  receiver: fileResource(startLocalReceiver, (server) => server.close()),
  busConnection: [
    async ({ bus }, use) => {
      const connection = await connectBus({ url: bus.url, name: "test", logger: silentLogger, namespace: bus.namespace });
      try {
        await connection.ensureStreams([transferMatched]);
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
  watchFeed: [
    async ({ bus }, use) => {
      const observer = await observeWatchFeed(bus.url, bus.namespace);
      try {
        await observer.bus.ensureStreams([addressIssued, keyMoved]);
        await use(observer);
      } finally {
        await observer.close();
      }
    },
    { scope: "file" },
  ],
  deliveryDb: [
    async ({ database }, use) => {
      const opened = await openDeliveryDatabase(database.connectionString, "delivery-test");
      try {
        await use(opened);
      } finally {
        await opened.close();
      }
    },
    { scope: "file" },
  ],
  harness: [
    async ({ database, deliveryEnv, delivery, receiver, busConnection }, use) => {
      let running = delivery;
      const harness = createDeliveryHarness({
        database,
        receiver,
        bus: busConnection,
        delivery: () => running,
        async restartDelivery() {
          await running.close();
          running = await startTestDelivery(database.connectionString, deliveryEnv);
        },
      });
      try {
        await use(harness);
      } finally {
        // The file's `delivery` closes itself; a restarted one is closed here, after the receiver (as above).
        if (running !== delivery) {
          await receiver.close();
          await running.close();
        }
      }
    },
    { scope: "file" },
  ],
});
