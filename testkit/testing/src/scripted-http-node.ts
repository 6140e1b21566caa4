/**
 * A node whose every answer the test scripts: for behaviours a real node cannot be made to show
 * (a hung call, a half-written answer, a refusal). Each call is recorded as `read` describes it (a
 * JSON-RPC method, a path with its headers) and answered by the current behaviour; until a test sets
 * one, every call gets 500.
 */
import http from "node:http";

export type ScriptedBehaviour<Call> = (call: Call, response: http.ServerResponse, request: http.IncomingMessage) => void;

export interface ScriptedHttpNode<Call> {
  url: string;
  /** Every call received, in order. */
  calls: Call[];
  behave(behaviour: ScriptedBehaviour<Call>): void;
  /** Closes the server and every connection still open to it. */
  close(): Promise<void>;
}

/** `read` turns a whole request (its body as text) into what the test records and scripts by. */
export async function startScriptedHttpNode<Call>(
  read: (request: http.IncomingMessage, body: string) => Call,
): Promise<ScriptedHttpNode<Call>> {
  let behaviour: ScriptedBehaviour<Call> = (_call, response) => response.writeHead(500).end();
  const calls: Call[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const call = read(request, body);
      calls.push(call);
      behaviour(call, response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    behave: (next) => (behaviour = next),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
