import type { EventContract } from "@chaingate/contracts";
import type { JetStreamManager } from "nats";
import type { BusNaming } from "./bus-naming.ts";
import { isNoMessage, unlessMissing } from "./nats-errors.ts";

/**
 * Removes every stored message on the subjects matching `subjectFilter` (namespace added) from the
 * contract's stream, message by message; returns how many. Not a stream purge: on nats-server 2.9
 * a purge with a subject filter moves every consumer of the stream that has not caught up past
 * ALL pending messages, matching or not (measured with 2.9.10: a consumer 22 messages behind
 * received none of them); deleting messages one by one leaves the others alone.
 */
export async function removeSubjects(
  { manager, naming }: { manager: JetStreamManager; naming: BusNaming },
  contract: EventContract,
  subjectFilter: string,
): Promise<number> {
  const stream = naming.streamName(contract);
  const { state } = await manager.streams.info(stream, { subjects_filter: naming.subject(subjectFilter) });
  let removed = 0;
  for (const subject of Object.keys(state.subjects ?? {})) {
    for (;;) {
      const last = await unlessMissing(manager.streams.getMessage(stream, { last_by_subj: subject }), isNoMessage);
      if (!last) break;
      // Without erasing (overwriting the bytes on disk): the message is gone for every reader.
      if (await manager.streams.deleteMessage(stream, last.seq, false)) removed++;
    }
  }
  return removed;
}
