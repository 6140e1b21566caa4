/**
 * A TCP server on 127.0.0.1 that accepts every connection and never answers (reads and drops what
 * it is sent): the endpoint that holds a delivery attempt for its whole timeout. It counts the
 * connections it accepted and how many are open now (each attempt opens one: a socket that never
 * got an answer is never reused).
 */
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface BlackholeServer {
  url: string;
  /** Connections accepted so far, with the time each was. */
  accepted: number[];
  /** Connections open now. */
  open(): number;
  /** The most connections that were open at once. */
  peakOpen(): number;
  close(): Promise<void>;
}

export async function startBlackholeServer(): Promise<BlackholeServer> {
  const sockets = new Set<Socket>();
  const accepted: number[] = [];
  let peak = 0;
  const server = createServer((socket) => {
    accepted.push(Date.now());
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    open: () => sockets.size,
    peakOpen: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
