/** What every push channel (ZMQ, WebSocket, `-blocknotify`) reports to the scanner. */
import { redactUrl } from "@chaingate/config";
import type { Coin } from "@chaingate/contracts";

/** A lost channel is reopened after this, doubling up to the maximum (polling covers the gap). */
export const RECONNECT_FIRST_MS = 200;
export const RECONNECT_MAX_MS = 10_000;

export interface AnnouncementObserver {
  /** A block was announced: wake the chain's follower. */
  announced(coin: Coin, channel: string): void;
  /** A transaction entered the node's mempool (ZMQ `sequence`): wake the chain's mempool watcher with it. */
  transactionAnnounced?(coin: Coin, txid: string): void;
  /** The channel is connected and subscribed (true), or lost (false): metrics and `/readyz` degraded. */
  status(coin: Coin, channel: string, up: boolean): void;
}

/** A running push channel; closing it stops its reconnects. */
export interface BlockAnnouncementChannel {
  coin: Coin;
  /** e.g. `zmq tcp://127.0.0.1:28332` (no credentials: URLs are shown without user info). */
  name: string;
  close(): Promise<void>;
}

/**
 * A URL as shown in logs, metrics and `/readyz`: without user info or query, and with key-like path
 * segments (a provider's `/ws/v3/<key>`) masked by the project's one URL redaction.
 */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  return redactUrl(`${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`);
}
