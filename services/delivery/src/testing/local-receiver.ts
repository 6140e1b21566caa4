/** A webhook receiver on 127.0.0.1 for tests: records every request; each path answers as told. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** Answers one request; the default answers 200. */
export type Behaviour = (request: ReceivedRequest, response: ServerResponse, count: number) => void;

export interface LocalReceiver {
  url: string;
  received: ReceivedRequest[];
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startLocalReceiver(): Promise<LocalReceiver> {
  const received: ReceivedRequest[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      const count = (counts.get(request.path) ?? 0) + 1;
      counts.set(request.path, count);
      const behaviour = behaviours.get(request.path);
      if (behaviour) behaviour(request, res, count);
      else res.end("ok");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path, behaviour) => void behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
