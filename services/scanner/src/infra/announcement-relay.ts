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

/** `scanner.block-announced.<COIN>`: one replica's blocknotify call, relayed to the others. */
const SUBJECT_PREFIX = "scanner.block-announced.";

export function createAnnouncementRelay(options: {
  bus: Pick<Bus, "signal" | "onSignal">;
  coins: readonly Coin[];
  observer: AnnouncementObserver;
}): AnnouncementRelay {
  const { bus, observer } = options;
  const coins = new Set<string>(options.coins);
  // Each replica signs what it relays, to skip its own (already woken, and counted once).
  const origin = randomUUID();
  const subscription = bus.onSignal(`${SUBJECT_PREFIX}*`, (subject, from) => {
    const coin = subject.slice(SUBJECT_PREFIX.length);
    if (coins.has(coin) && from !== origin) observer.announced(coin as Coin, BLOCKNOTIFY_CHANNEL);
  });
  return {
    announce(coin) {
      observer.announced(coin, BLOCKNOTIFY_CHANNEL);
      try {
        bus.signal(`${SUBJECT_PREFIX}${coin}`, origin);
      } catch {
        // NATS down: this replica woke; the others poll.
      }
    },
    async close() {
      subscription.unsubscribe();
    },
  };
}
