/**
 * Ethereum's push: `eth_subscribe("newHeads")` over the node's WebSocket JSON-RPC (Geth, Nethermind,
 * Erigon, Hardhat; the same port as HTTP on Hardhat). Every `eth_subscription` message wakes the
 * follower; its header is not used (the follower reads blocks over HTTP as after a timed poll).
 * A closed or failed socket is reopened with a doubling back-off; a ping unanswered by the next one
 * marks a silent connection dead, so a node that stopped talking is noticed too. The same socket
 * subscribes to `newPendingTransactions` (issue #29): each hash goes to the mempool watcher, which
 * reads it at once; a node that refuses it only loses that speed-up (the pool is still diffed).
 */
import { backoffDelayMs } from "@chaingate/backoff";
import type { Coin } from "@chaingate/contracts";
import WebSocket from "ws";
import type { FollowerLogger } from "../domain/ports.ts";
import {
  displayUrl,
  RECONNECT_FIRST_MS,
  RECONNECT_MAX_MS,
  type AnnouncementObserver,
  type BlockAnnouncementChannel,
} from "./block-announcement-channel.ts";

const PING_EVERY_MS = 15_000;
const SUBSCRIBE_ID = 1;
const SUBSCRIBE_PENDING_ID = 2;

export interface EthereumNewHeadsOptions {
  coin: Coin;
  /** `ws://` or `wss://` JSON-RPC endpoint. */
  url: string;
  observer: AnnouncementObserver;
  logger: FollowerLogger;
  /** Test hook: back-off and ping timing. */
  reconnectFirstMs?: number;
  pingEveryMs?: number;
}

export function subscribeEthereumNewHeads(options: EthereumNewHeadsOptions): BlockAnnouncementChannel {
  const { coin, url, observer, logger } = options;
  const name = `ws ${displayUrl(url)}`;
  const firstDelay = options.reconnectFirstMs ?? RECONNECT_FIRST_MS;
  let closed = false;
  let socket: WebSocket | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  observer.status(coin, name, false);

  function open(): void {
    const current = new WebSocket(url, { handshakeTimeout: 10_000 });
    socket = current;
    let subscribed = false;
    let pendingSubscription: string | undefined;
    let awaitingPong = false;
    const pinger = setInterval(() => {
      // Still opening: the handshake timeout covers it.
      if (current.readyState !== WebSocket.OPEN) return;
      if (awaitingPong) return current.terminate();
      awaitingPong = true;
      current.ping();
    }, options.pingEveryMs ?? PING_EVERY_MS);
    current.on("pong", () => {
      awaitingPong = false;
    });
    current.on("open", () => {
      current.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "eth_subscribe", params: ["newHeads"] }));
      current.send(
        JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_PENDING_ID, method: "eth_subscribe", params: ["newPendingTransactions"] }),
      );
    });
    current.on("message", (data) => {
      let message: {
        id?: unknown;
        result?: unknown;
        error?: { message?: string };
        method?: unknown;
        params?: { subscription?: unknown; result?: unknown };
      };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      if (message.method === "eth_subscription") {
        if (pendingSubscription === undefined || message.params?.subscription !== pendingSubscription)
          return observer.announced(coin, name);
        // A hash, or (geth's `true` flag, not asked here) the whole transaction.
        const pending = message.params.result;
        const hash = typeof pending === "string" ? pending : (pending as { hash?: unknown } | undefined)?.hash;
        if (typeof hash === "string") observer.transactionAnnounced?.(coin, hash);
        return;
      }
      if (message.id === SUBSCRIBE_PENDING_ID) {
        if (typeof message.result === "string") pendingSubscription = message.result;
        return;
      }
      if (message.id !== SUBSCRIBE_ID) return;
      if (message.error || typeof message.result !== "string") {
        if (failures === 0)
          logger.warn(
            { coin, channel: name, error: message.error?.message },
            "the node refused eth_subscribe(newHeads): polling only, retrying later",
          );
        current.close();
        return;
      }
      subscribed = true;
      failures = 0;
      logger.info({ coin, channel: name }, "block announcements subscribed");
      observer.status(coin, name, true);
    });
    current.on("error", (error) => {
      if (failures === 0) logger.warn({ coin, channel: name, err: error }, "block announcement socket failed: polling until it reconnects");
    });
    current.on("close", () => {
      clearInterval(pinger);
      // Reported once per loss: failed reconnects change nothing.
      if (subscribed) {
        logger.warn({ coin, channel: name }, "block announcements lost: polling until the socket reconnects");
        observer.status(coin, name, false);
      }
      if (closed) return;
      failures++;
      const delay = backoffDelayMs(failures, { firstMs: firstDelay, maxMs: RECONNECT_MAX_MS });
      reconnectTimer = setTimeout(open, delay);
    });
  }
  open();

  return {
    coin,
    name,
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      const current = socket;
      if (!current || current.readyState === WebSocket.CLOSED) return;
      const done = new Promise((resolve) => current.once("close", resolve));
      current.terminate();
      await done;
    },
  };
}
