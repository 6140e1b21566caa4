/**
 * Bitcoin Core's ZMQ block notifications (doc/zmq.md): a SUB socket connected to the node's
 * `-zmqpubhashblock` endpoint receives `[ "hashblock", <32-byte hash>, <uint32 LE sequence> ]` for
 * every new tip. The hash is not used: the announcement only wakes the follower, which reads the
 * tip from RPC. ZMQ reconnects by itself (with the back-off set here); ZMTP heartbeats detect a
 * peer that vanished or went silent without closing TCP. A gap in the sequence (messages dropped by the node's
 * high-water mark) costs nothing: the follower walks every height from its cursor.
 * The same socket also takes the `sequence` topic (`-zmqpubsequence` on the same address, issue
 * #29): `<32-byte txid, display order>A<8-byte LE mempool sequence>` hands the txid to the mempool
 * watcher, and a connected block (`C`) announces it as `hashblock` does. A missed one costs nothing
 * either: the watcher's diff of `getrawmempool` finds it.
 */
import type { Coin } from "@chaingate/contracts";
import type { FollowerLogger } from "../domain/ports.ts";
import type { Subscriber } from "zeromq";
import {
  displayUrl,
  RECONNECT_FIRST_MS,
  RECONNECT_MAX_MS,
  type AnnouncementObserver,
  type BlockAnnouncementChannel,
} from "./block-announcement-channel.ts";

export const ZMQ_TOPIC = "hashblock";
export const ZMQ_SEQUENCE_TOPIC = "sequence";
/** `sequence` labels: a block connected, a transaction added to the mempool. */
const BLOCK_CONNECTED = 0x43;
const MEMPOOL_ADDED = 0x41;
const HEARTBEAT_INTERVAL_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 30_000;

export interface BitcoinZmqOptions {
  coin: Coin;
  /** The node's `-zmqpubhashblock` address, e.g. `tcp://127.0.0.1:28332`. */
  url: string;
  observer: AnnouncementObserver;
  logger: FollowerLogger;
  /** Test hook: ZMTP heartbeat timing (a handshake gets as long as the heartbeat timeout). */
  heartbeatIntervalMs?: number;
  heartbeatTimeoutMs?: number;
  /** zeromq's Subscriber class, imported by the caller only when ZMQ is configured (a native addon). */
  Subscriber: typeof Subscriber;
}

export function subscribeBitcoinZmq(options: BitcoinZmqOptions): BlockAnnouncementChannel {
  const { coin, url, observer, logger, Subscriber } = options;
  const name = `zmq ${displayUrl(url)}`;
  const heartbeatTimeout = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const socket = new Subscriber({
    reconnectInterval: RECONNECT_FIRST_MS,
    reconnectMaxInterval: RECONNECT_MAX_MS,
    heartbeatInterval: options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS,
    heartbeatTimeout,
    handshakeInterval: heartbeatTimeout,
  });
  let up = false;
  observer.status(coin, name, false);
  // Up once the ZMTP handshake is done: a TCP connection alone may lead to a peer that never answers.
  socket.events.on("handshake", () => {
    up = true;
    logger.info({ coin, channel: name }, "block announcements connected");
    observer.status(coin, name, true);
  });
  // Reported once per loss: failed reconnects change nothing.
  socket.events.on("disconnect", () => {
    if (!up) return;
    up = false;
    logger.warn({ coin, channel: name }, "block announcements lost: polling until ZMQ reconnects");
    observer.status(coin, name, false);
  });
  socket.subscribe(ZMQ_TOPIC, ZMQ_SEQUENCE_TOPIC);
  socket.connect(url);
  // Each topic has its own publisher on the node, and so its own message numbers.
  const lastSequence = new Map<string, number | undefined>();
  const receiving = (async () => {
    for await (const [topicBytes, body, sequence] of socket) {
      const topic = topicBytes?.toString("latin1");
      if (topic !== ZMQ_TOPIC && topic !== ZMQ_SEQUENCE_TOPIC) continue;
      const number = sequence?.length === 4 ? sequence.readUInt32LE(0) : undefined;
      const last = lastSequence.get(topic);
      if (number !== undefined && last !== undefined && number !== (last + 1) >>> 0) {
        logger.info(
          { coin, channel: name, topic, expected: (last + 1) >>> 0, got: number },
          "ZMQ sequence gap (node restarted or messages dropped); the follower walks every height and the mempool is diffed anyway",
        );
      }
      lastSequence.set(topic, number);
      if (topic === ZMQ_TOPIC) observer.announced(coin, name);
      else if (body?.length === 41 && body[32] === MEMPOOL_ADDED)
        observer.transactionAnnounced?.(coin, body.subarray(0, 32).toString("hex"));
      else if (body?.length === 33 && body[32] === BLOCK_CONNECTED) observer.announced(coin, name);
    }
  })().catch((error: unknown) => {
    if (!socket.closed) logger.warn({ coin, channel: name, err: error }, "ZMQ receive failed; polling only");
    up = false;
    observer.status(coin, name, false);
  });
  return {
    coin,
    name,
    async close() {
      socket.close();
      await receiving;
    },
  };
}
