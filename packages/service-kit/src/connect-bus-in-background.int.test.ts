/**
 * A service's bus while NATS is down at start-up: nothing waits for it, it is named not connected,
 * and once NATS is up the streams exist and the consumers run; close() stops them.
 */
import { randomBytes } from "node:crypto";
import { transferMatched } from "@chaingate/contracts";
import { createLogger } from "@chaingate/logger";
import type { PrivateNats } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { expect } from "vitest";
import { connectBusInBackground } from "./connect-bus-in-background.ts";

const logger = createLogger({ service: "test", level: "silent" });

const it = integrationTest.extend<{
  /** The file's own nats-server (`privateNats`), stopped: the test starts it once the service waits for it. */
  stoppedNats: PrivateNats;
}>({
  stoppedNats: [
    async ({ privateNats }, use) => {
      await privateNats.stop();
      await use(privateNats);
    },
    { scope: "file" },
  ],
});

it("connects once NATS is up, ensures the streams, starts the consumers once, and stops them on close", async ({ stoppedNats: nats }) => {
  const namespace = `k${randomBytes(4).toString("hex")}`;
  let started = 0;
  let stopped = 0;
  const bus = connectBusInBackground({
    settings: { NATS_URL: nats.url, NATS_NAMESPACE: namespace, NATS_STREAM_REPLICAS: 1 },
    name: "kit-test",
    logger,
    streams: [transferMatched],
    retry: { firstMs: 100, maxMs: 200 },
    onConnect: async () => {
      started++;
      return [{ done: Promise.resolve(), stop: async () => void stopped++ }];
    },
  });
  await expect(bus.ping()).rejects.toThrow("not connected yet");

  await nats.start();
  const connected = await bus.get();
  await expect
    .poll(
      () =>
        bus.ping().then(
          () => true,
          () => false,
        ),
      { timeout: 10_000 },
    )
    .toBe(true);
  expect((await connected.admin.streamInfo(transferMatched)).config.name).toBe(`${namespace}_TRANSFERS`);
  expect(await bus.get()).toBe(connected);
  expect(started).toBe(1);

  await bus.close();
  expect(stopped).toBe(1);
  await expect(bus.ping()).rejects.toThrow();
});
