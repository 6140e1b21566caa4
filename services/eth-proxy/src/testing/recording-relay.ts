/**
 * An HTTP stand-in between a proxy and its node that forwards every request unchanged and records
 * its body: what lets a test show that a refused call never reached the node.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";

export interface RecordingRelay {
  url: string;
  /** Every request body that reached the node, in order. */
  bodies(): string[];
  close(): Promise<void>;
}

export async function startRecordingRelay(nodeUrl: string): Promise<RecordingRelay> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await text(req);
      bodies.push(body);
      try {
        const answer = await fetch(nodeUrl, {
          method: req.method,
          headers: { "content-type": req.headers["content-type"] ?? "application/json" },
          body: req.method === "GET" ? undefined : body,
        });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies: () => [...bodies],
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
