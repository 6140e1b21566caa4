/** Publishes `transfer.matched` events on a test file's bus as the scanner does, over a connection of its own closed after. */
import { connectBus } from "@chaingate/bus";
import { transferMatched } from "@chaingate/contracts";
import { silentLogger, type TestBus } from "@chaingate/testing";
import type { TransferMatchedEvent } from "./delivery-harness.ts";

export async function publishTransfers(bus: Pick<TestBus, "url" | "namespace">, events: readonly TransferMatchedEvent[]): Promise<void> {
  const connection = await connectBus({ url: bus.url, name: "test-publisher", logger: silentLogger, namespace: bus.namespace });
  try {
    await connection.ensureStreams([transferMatched]);
    for (const event of events) await connection.publish(transferMatched, event);
  } finally {
    await connection.close();
  }
}
