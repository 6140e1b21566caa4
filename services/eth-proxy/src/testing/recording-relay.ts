/**
 * An HTTP stand-in between a proxy and its node that forwards every request unchanged and records
 * its body: what lets a test show that a refused call never reached the node. With `answerPace`,
 * it writes each answer a slice at a time, so the node's answers are still under way when the
 * proxy hangs up on them (a cancelled node call), which it counts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { setTimeout as sleep } from "node:timers/promises";

export interface RecordingRelay {
  url: string;
  /** Every request body that reached the node, in order. */
  bodies(): string[];
  /** Answers whose connection the proxy closed before the relay had written them whole. */
  answersCut(): number;
  close(): Promise<void>;
}

export interface RecordingRelayOptions {
  /** Each answer written `bytes` at a time, one slice every `everyMs`; default: at once. */
  answerPace?: { bytes: number; everyMs: number };
}

export async function startRecordingRelay(nodeUrl: string, { answerPace }: RecordingRelayOptions = {}): Promise<RecordingRelay> {
  const bodies: string[] = [];
  let answersCut = 0;
  const server = createServer((req, res) => {
    res.once("close", () => {
      if (!res.writableFinished) answersCut++;
    });
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
        const bytes = Buffer.from(await answer.arrayBuffer());
        if (!answerPace) return void res.end(bytes);
        for (let at = 0; at < bytes.length && !res.destroyed; at += answerPace.bytes) {
          res.write(bytes.subarray(at, at + answerPace.bytes));
          await sleep(answerPace.everyMs);
        }
        res.end();
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies: () => [...bodies],
    answersCut: () => answersCut,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
