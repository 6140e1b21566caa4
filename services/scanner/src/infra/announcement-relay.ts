/**
 * `-blocknotify` reaches one scanner replica over HTTP (`POST /internal/chains/:chain/block-announced`),
 * while only the chain's lease holder follows it. The replica that receives the call wakes its own
 * follower and relays the announcement on core NATS, so every replica (the holder among them) wakes
 * too. Core NATS, not JetStream: an announcement lost in a NATS outage is covered by the poll.
 */
import type { Coin } from "@chaingate/contracts";
import { randomUUID } from "node:crypto";
import type { Bus } from "@chaingate/bus";
import type { AnnouncementObserver } from "./block-announcement-channel.ts";

/** How blocknotify announcements are named in metrics (they have no connection of their own). */
export const BLOCKNOTIFY_CHANNEL = "blocknotify";

export interface AnnouncementRelay {
  /** Wakes this replica's follower of `coin` and every other replica's. */
  announce(coin: Coin): void;
  close(): Promise<void>;
}

export function createAnnouncementRelay(options: {
  connection: Bus["connection"];
  namespace: string | undefined;
  coins: readonly Coin[];
  observer: AnnouncementObserver;
}): AnnouncementRelay {
  const { connection, observer } = options;
  const prefix = `${options.namespace ? `${options.namespace}.` : ""}scanner.block-announced`;
  const coins = new Set<string>(options.coins);
  // Each replica signs what it relays, to skip its own (already woken, and counted once).
  const origin = randomUUID();
  const subscription = connection.subscribe(`${prefix}.*`, {
    callback: (error, message) => {
      const coin = message?.subject.slice(prefix.length + 1);
      if (error || !coin || !coins.has(coin) || message.string() === origin) return;
      observer.announced(coin as Coin, BLOCKNOTIFY_CHANNEL);
    },
  });
  return {
    announce(coin) {
      observer.announced(coin, BLOCKNOTIFY_CHANNEL);
      try {
        connection.publish(`${prefix}.${coin}`, origin);
      } catch {
        // NATS down: this replica woke; the others poll.
      }
    },
    async close() {
      subscription.unsubscribe();
    },
  };
}
