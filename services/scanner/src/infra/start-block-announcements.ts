/**
 * The push channels the config names (BTC_ZMQ_URL, ETH_WS_URL), each waking its chain's follower,
 * plus the relay that carries `-blocknotify` calls to every replica. Every replica subscribes, the
 * standbys too, so a lease handed over follows at push speed at once; a standby's wake is a no-op.
 */
import type { Coin } from "@chaingate/contracts";
import type { Bus } from "@chaingate/bus";
import { ConfigError } from "@chaingate/config";
import type { ScannerConfig } from "../config.ts";
import type { WakeableSleep } from "@chaingate/backoff";
import type { FollowerLogger } from "../domain/ports.ts";
import { createAnnouncementRelay, type AnnouncementRelay } from "./announcement-relay.ts";
import type { AnnouncementObserver, BlockAnnouncementChannel } from "./block-announcement-channel.ts";
import { subscribeBitcoinZmq } from "./bitcoin-zmq-announcements.ts";
import { subscribeEthereumNewHeads } from "./ethereum-new-heads.ts";

export interface BlockAnnouncements {
  relay: AnnouncementRelay;
  /** Configured channels that are down right now, by name (`/readyz` degraded). */
  down(): string[];
  close(): Promise<void>;
}

export async function startBlockAnnouncements(options: {
  config: ScannerConfig;
  bus: Bus;
  wakes: ReadonlyMap<Coin, WakeableSleep>;
  /** Metrics. */
  observer: AnnouncementObserver;
  /** A transaction the node announced entering its mempool (ZMQ `sequence`): for the chain's mempool watcher. */
  transactionAnnounced?: (coin: Coin, txid: string) => void;
  logger: FollowerLogger;
}): Promise<BlockAnnouncements> {
  const { config, wakes, logger } = options;
  const up = new Map<string, boolean>();
  const observer: AnnouncementObserver = {
    announced(coin, channel) {
      options.observer.announced(coin, channel);
      wakes.get(coin)?.wake();
    },
    transactionAnnounced(coin, txid) {
      options.transactionAnnounced?.(coin, txid);
    },
    status(coin, channel, isUp) {
      options.observer.status(coin, channel, isUp);
      up.set(`${coin} ${channel}`, isUp);
    },
  };
  const channels: BlockAnnouncementChannel[] = [];
  if (wakes.has("BTC") && config.BTC_ZMQ_URL?.length) {
    const Subscriber = await loadZmqSubscriber();
    for (const url of config.BTC_ZMQ_URL) channels.push(subscribeBitcoinZmq({ coin: "BTC", url, observer, logger, Subscriber }));
  }
  if (wakes.has("ETH"))
    for (const url of config.ETH_WS_URL ?? []) channels.push(subscribeEthereumNewHeads({ coin: "ETH", url, observer, logger }));
  for (const { entry, wsUrl } of config.EVM_CHAINS)
    if (wakes.has(entry.coin) && wsUrl) channels.push(subscribeEthereumNewHeads({ coin: entry.coin, url: wsUrl, observer, logger }));
  const relay = createAnnouncementRelay({
    bus: options.bus,
    coins: [...wakes.keys()],
    observer,
  });
  return {
    relay,
    down: () => [...up].filter(([, isUp]) => !isUp).map(([name]) => name),
    async close() {
      await relay.close();
      await Promise.all(channels.map((channel) => channel.close()));
    },
  };
}

/**
 * zeromq is a native addon with prebuilt binaries for some platforms only (linux arm64: Node 22+):
 * loaded only when BTC_ZMQ_URL asks for it, so a scanner without ZMQ runs anywhere.
 */
async function loadZmqSubscriber() {
  try {
    return (await import("zeromq")).Subscriber;
  } catch (error) {
    throw new ConfigError("scanner", [
      `BTC_ZMQ_URL: the zeromq native addon does not load on this platform (${error instanceof Error ? error.message : String(error)}); use the node's -blocknotify instead (docs/design/scanner.md, Block announcements)`,
    ]);
  }
}
