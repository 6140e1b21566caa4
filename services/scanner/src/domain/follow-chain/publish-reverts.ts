import type { EventSink, StoredMatch } from "../ports.ts";
import { transferEvent } from "../transfer-event.ts";

/** Publishes the "reverted" event of each published match (same generation as its "transfer"). */
export async function publishReverts(sink: EventSink, reverted: readonly StoredMatch[]): Promise<void> {
  await Promise.all(
    reverted.map((entry) =>
      sink.publishTransfer(
        transferEvent(
          "reverted",
          entry.match,
          { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
          entry.publishedConfirmations ?? 1,
          entry.generation,
        ),
      ),
    ),
  );
}
