/** Publishes the follower's events on JetStream; the contracts give each a deterministic Nats-Msg-Id. */
import type { Bus } from "@chaingate/bus";
import { blockProcessed, transferMatched } from "@chaingate/contracts";
import type { EventSink } from "../domain/ports.ts";

export function createJetStreamEventSink(bus: Bus): EventSink {
  return {
    async publishTransfer(event) {
      await bus.publish(transferMatched, event);
    },
    async publishBlock(event) {
      await bus.publish(blockProcessed, event);
    },
  };
}
