/**
 * Publishes the follower's events on JetStream; the contracts give each a deterministic Nats-Msg-Id.
 * Each event is stamped with its chain's CAIP-2 id, as the chain guard checked it (`chain`).
 */
import type { Bus } from "@chaingate/bus";
import { blockProcessed, transferMatched, type Coin } from "@chaingate/contracts";
import type { EventSink } from "../domain/ports.ts";

export function createJetStreamEventSink(bus: Bus, chainId: (coin: Coin) => string | undefined = () => undefined): EventSink {
  const withChain = <T extends { coin: Coin }>(event: T): T => {
    const chain = chainId(event.coin);
    return chain === undefined ? event : { ...event, chain };
  };
  return {
    async publishTransfer(event) {
      await bus.publish(transferMatched, withChain(event));
    },
    async publishBlock(event) {
      await bus.publish(blockProcessed, withChain(event));
    },
  };
}
