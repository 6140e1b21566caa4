/**
 * A TCP proxy in front of Postgres that can hold back what the server sends to the gateways'
 * key-change listeners (recognised by their application_name in the startup packet), while every
 * other connection passes untouched: a NOTIFY that is late or lost, made to order.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { KEY_LISTENER_APPLICATION_NAME } from "../infra/api-key-store.ts";

export interface KeyListenerProxy {
  /** DATABASE_URL for the gateways under test: the proxied server, same database and user. */
  url: string;
  /** From now on, bytes from the server to a listener are held (notifications do not arrive). */
  hold(): void;
  /** Delivers what was held and passes bytes again. */
  release(): void;
  close(): Promise<void>;
}

interface ListenerLink {
  client: net.Socket;
  held: Buffer[];
}

export async function startKeyListenerProxy(databaseUrl: string): Promise<KeyListenerProxy> {
  const target = new URL(databaseUrl);
  const listeners = new Set<ListenerLink>();
  const sockets = new Set<net.Socket>();
  let holding = false;

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let link: ListenerLink | undefined;
    client.once("data", (first: Buffer) => {
      // The startup packet names the application (no TLS on loopback test databases).
      if (first.includes(KEY_LISTENER_APPLICATION_NAME)) listeners.add((link = { client, held: [] }));
      upstream.write(first);
      client.on("data", (chunk: Buffer) => upstream.write(chunk));
    });
    upstream.on("data", (chunk: Buffer) => {
      if (link && holding) link.held.push(chunk);
      else client.write(chunk);
    });
    const closeBoth = () => {
      if (link) listeners.delete(link);
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", closeBoth).on("error", closeBoth);
    upstream.on("close", closeBoth).on("error", closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);

  return {
    url: url.toString(),
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const link of listeners) for (const chunk of link.held.splice(0)) link.client.write(chunk);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
