/**
 * A TCP relay to a local port, for cutting a connection from the outside: `stop()` closes every
 * connection and refuses new ones (a node gone), `freeze()` keeps the connections open but passes
 * nothing more, not even a close (a partition: a peer that went silent without FIN or RST; the
 * other side's TCP stays alive, as behind a proxy or NAT), `start()` serves again and passes on
 * the closes it held back.
 */
import net from "node:net";
import { freePort } from "@chaingate/testing";

export interface TcpRelay {
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Open connections stop passing data and closes; new ones are accepted and frozen too, until start(). */
  freeze(): void;
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let frozen = false;
  /** Sockets whose peer closed while frozen: closed on start(). */
  const heldCloses = new Set<net.Socket>();
  const relay: TcpRelay = {
    port,
    async start() {
      frozen = false;
      for (const socket of heldCloses) socket.destroy();
      heldCloses.clear();
      if (server) return;
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, "127.0.0.1");
        for (const [from, to] of [
          [client, upstream],
          [upstream, client],
        ] as const) {
          sockets.add(from);
          from.on("close", () => {
            sockets.delete(from);
            if (frozen) heldCloses.add(to);
            else to.destroy();
          });
          from.on("error", () => {});
          from.on("data", (chunk) => {
            if (!frozen) to.write(chunk);
          });
        }
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    async stop() {
      heldCloses.clear();
      for (const socket of sockets) socket.destroy();
      const current = server;
      server = undefined;
      if (current) await new Promise((resolve) => current.close(resolve));
    },
    freeze() {
      frozen = true;
    },
  };
  await relay.start();
  return relay;
}
