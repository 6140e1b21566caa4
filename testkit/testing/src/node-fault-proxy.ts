/**
 * A hostile node for tests and drills: a real HTTP server on 127.0.0.1 that forwards to a real node
 * (bitcoind/litecoind JSON-RPC, an Ethereum JSON-RPC node such as Hardhat, java-tron's HTTP API or
 * the project's Tron simulator) and misbehaves the way production nodes do, on a seeded schedule:
 *
 * - `lag`: a node N blocks behind, as after a failover to a lagging URL. The tip it reports is the
 *   upstream's minus N (`getblockcount`/`getbestblockhash`, `eth_blockNumber`, `getnowblock`) and
 *   the blocks above it do not exist, answered as each node answers for a block it does not have
 *   (bitcoind -8 "Block height out of range" / -5 "Block not found", Ethereum `null`, Tron `{}`, and
 *   `[]` for Tron's transaction infos).
 * - `alternate`: a load-balanced provider whose backends differ by a block or two: each request is
 *   answered, at random, from the upstream's real view or from the other backend's: a view
 *   `alternate.lag` blocks behind, or a second real node (`alternate.upstream`) at its own height.
 * - `nullReceipts`: `eth_getBlockReceipts` answered `null`, a backend that has the block but not its
 *   receipts yet; `emptyTransactionInfo`: Tron `gettransactioninfobyblocknum` answered `[]`, the
 *   same on Tron; `failedTraces`: `debug_traceBlockByHash`/`trace_block` answered with geth's
 *   tracer error (-32000 "execution timeout"), a node too busy to trace the block. Under `lag` a
 *   block above the served tip is not traced either ("block not found").
 * - `timeout`: the request is held past the client's timeout (`holdMs`), then the connection is
 *   destroyed; `drop`: the connection is destroyed before the answer or halfway through it.
 *
 * In front of an Ethereum node without `eth_getBlockReceipts` (Hardhat 2) the proxy answers it from
 * `eth_getTransactionReceipt` per transaction, as production nodes and providers have it, so the
 * code under test takes its production path and `nullReceipts` reaches it.
 *
 * Probabilities are per request (a JSON-RPC batch is one request for `timeout`/`drop`/`alternate`,
 * and each of its calls is rewritten on its own), drawn from `seededRandom(seed)` in arrival order:
 * the same seed and the same sequence of requests give the same faults. Faults change at run time
 * (`setFaults`), `counters()` tells what was done. Answers the proxy does not rewrite are the
 * upstream's bytes, unparsed (exact decimals and long integers stay exact); a batch is forwarded
 * call by call so each answer keeps its own bytes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { text } from "node:stream/consumers";
import { seededRandom } from "./seeded-random.ts";
import { answerJsonRpc } from "./node-fault-proxy/answer-json-rpc.ts";
import { answerTron } from "./node-fault-proxy/answer-tron.ts";
import { JSON_TYPE, type Answer, type RequestContext } from "./node-fault-proxy/proxy-answer.ts";

export type NodeFaultProxyChain = "bitcoin" | "ethereum" | "tron";

/** What the proxy does wrong; probabilities in [0, 1] per request. */
export interface NodeFaults {
  /** Blocks the served tip trails the upstream's, for every request. */
  lag: number;
  /** Per request, with `probability`, the other backend of a load balancer answers instead. */
  alternate: AlternateBackend | null;
  nullReceipts: number;
  emptyTransactionInfo: number;
  failedTraces: number;
  timeout: number;
  drop: number;
  /** How long a timed-out request is held before its connection is destroyed. */
  holdMs: number;
}

/** A load balancer's other backend: the upstream `lag` blocks behind, or another node (then `lag` applies to it). */
export interface AlternateBackend {
  probability: number;
  /** Default 0. */
  lag?: number;
  /** Another real node of the same chain (its own height, its own forks); default the upstream. */
  upstream?: string;
}

/** What the proxy did since it started (or since `resetCounters`). */
export interface NodeFaultCounters {
  requests: number;
  /** Requests answered from a lagged view (`lag` or an `alternate` draw). */
  lagged: number;
  /** Requests answered from the alternate backend's view. */
  alternated: number;
  /** Calls answered "no such block" because the block is above the served tip. */
  missingBlocks: number;
  /** Tip answers rewritten to the served tip. */
  tipsRewritten: number;
  nullReceipts: number;
  emptyTransactionInfo: number;
  failedTraces: number;
  timeouts: number;
  /** Connections destroyed before any answer. */
  dropsBeforeAnswer: number;
  /** Connections destroyed after the status line and part of the body. */
  dropsMidAnswer: number;
}

export interface NodeFaultProxyOptions {
  chain: NodeFaultProxyChain;
  /** The real node's URL; user info in it is sent as basic auth when the client sends none. */
  upstream: string;
  /** Seeds the schedule. */
  seed: number;
  faults?: Partial<NodeFaults>;
}

export interface NodeFaultProxy {
  /** `http://127.0.0.1:<port>`: the node URL to give the code under test. */
  url: string;
  faults(): NodeFaults;
  /** Changes the given faults from the next request on. */
  setFaults(faults: Partial<NodeFaults>): void;
  counters(): NodeFaultCounters;
  resetCounters(): void;
  /** Closes the server and destroys every open connection (held requests included). */
  stop(): Promise<void>;
}

export const NO_FAULTS: NodeFaults = {
  lag: 0,
  alternate: null,
  nullReceipts: 0,
  emptyTransactionInfo: 0,
  failedTraces: 0,
  timeout: 0,
  drop: 0,
  holdMs: 10_000,
};

const zeroCounters = (): NodeFaultCounters => ({
  requests: 0,
  lagged: 0,
  alternated: 0,
  missingBlocks: 0,
  tipsRewritten: 0,
  nullReceipts: 0,
  emptyTransactionInfo: 0,
  failedTraces: 0,
  timeouts: 0,
  dropsBeforeAnswer: 0,
  dropsMidAnswer: 0,
});

/** Request headers not copied to the upstream request. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startNodeFaultProxy(options: NodeFaultProxyOptions): Promise<NodeFaultProxy> {
  const main = parseUpstream(options.upstream);
  const random = seededRandom(options.seed);
  let faults: NodeFaults = { ...NO_FAULTS, ...options.faults };
  let counters = zeroCounters();
  const sockets = new Set<Socket>();
  const chain = options.chain;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await text(request);
    const current = faults;
    counters.requests++;
    // Draw every decision in a fixed order, whatever applies, so the schedule depends on the seed and the request count only.
    const [dropDraw, dropWhere, timeoutDraw, alternateDraw] = [random.next(), random.next(), random.next(), random.next()];
    if (dropDraw < current.drop && dropWhere < 0.5) {
      counters.dropsBeforeAnswer++;
      request.socket.destroy();
      return;
    }
    if (timeoutDraw < current.timeout) {
      counters.timeouts++;
      const timer = setTimeout(() => request.socket.destroy(), current.holdMs);
      request.socket.once("close", () => clearTimeout(timer));
      return;
    }
    const alternate = current.alternate !== null && alternateDraw < current.alternate.probability ? current.alternate : undefined;
    const lag = alternate ? (alternate.lag ?? 0) : current.lag;
    const target = alternate?.upstream === undefined ? main : parseUpstream(alternate.upstream);
    if (alternate) counters.alternated++;
    if (lag > 0) counters.lagged++;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (!HOP_HEADERS.has(name) && typeof value === "string") headers[name] = value;
    if (target.authorization && !headers.authorization) headers.authorization = target.authorization;
    const forward = async (path: string, forwardBody: string): Promise<Answer> => {
      // A body-less GET (java-tron's getnowblock) stays a GET; everything else is posted.
      const get = request.method === "GET" && forwardBody === "";
      const answer = await fetch(
        `${target.base}${path}`,
        get ? { method: "GET", headers } : { method: "POST", headers, body: forwardBody },
      );
      return { status: answer.status, contentType: answer.headers.get("content-type") ?? JSON_TYPE, body: await answer.text() };
    };
    const context: RequestContext = { lag, forward, faults: current, draw: () => random.next() };
    const answer =
      chain === "tron"
        ? await answerTron(request.url ?? "/", body, context, counters)
        : await answerJsonRpc(chain, request.url ?? "/", body, context, counters);
    if (dropDraw < current.drop) {
      counters.dropsMidAnswer++;
      response.writeHead(answer.status, { "content-type": answer.contentType, "content-length": Buffer.byteLength(answer.body) });
      response.write(answer.body.slice(0, Math.floor(answer.body.length / 2)), () => request.socket.destroy());
      return;
    }
    response.writeHead(answer.status, { "content-type": answer.contentType });
    response.end(answer.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // The upstream itself failed: a gateway error, as a reverse proxy answers.
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`node fault proxy: ${String(error)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
    },
    counters: () => ({ ...counters }),
    resetCounters() {
      counters = zeroCounters();
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A node URL without its user info, which becomes basic auth for clients that send none. */
function parseUpstream(url: string): { base: string; authorization: string | undefined } {
  const parsed = new URL(url);
  const authorization = parsed.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64")}`
    : undefined;
  parsed.username = "";
  parsed.password = "";
  return { base: parsed.href.replace(/\/$/, ""), authorization };
}
