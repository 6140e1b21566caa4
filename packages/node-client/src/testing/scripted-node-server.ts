/**
 * For the client's unit tests: a scripted HTTP server standing in for a node (behaviours a real
 * node cannot be made to show), and the clean-up of the servers and clients a describe makes.
 */
import http from "node:http";
import { afterEach } from "vitest";
import type { NodeClient } from "../node-client.ts";

/** What the scripted node does with one request (its body read whole). */
export type Handler = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void;

export async function startServer(handler: Handler): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => handler(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

export function json(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

export async function collectAndDiscard(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of body);
}

/**
 * `serve` starts a scripted node, `make` a client; both are closed after each test of the describe
 * (or file) this is called in.
 */
export function useScriptedNodes<Options>(create: (options: Options) => NodeClient) {
  const servers: http.Server[] = [];
  const clients: NodeClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  const serve = async (handler: Handler) => {
    const started = await startServer(handler);
    servers.push(started.server);
    return started.url;
  };
  const make = (options: Options) => {
    const client = create(options);
    clients.push(client);
    return client;
  };
  return { serve, make };
}
