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

/** bitcoind's codes for a height above its tip and an unknown block hash. */
const BITCOIN_HEIGHT_OUT_OF_RANGE = { code: -8, message: "Block height out of range" };
const BITCOIN_BLOCK_NOT_FOUND = { code: -5, message: "Block not found" };
/** bitcoind answers a single call's error with HTTP 500 (404 for an unknown method). */
const BITCOIN_ERROR_STATUS = 500;
const JSON_TYPE = "application/json";
/** Request headers not copied to the upstream request. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

/** An answer to one call, as bytes: the upstream's untouched or one the proxy made. */
interface Answer {
  status: number;
  contentType: string;
  body: string;
}

interface JsonRpcCall {
  id?: unknown;
  jsonrpc?: string;
  method?: string;
  params?: unknown[];
}

/** The per-request context: the view's lag and how to reach the upstream with the client's credentials. */
interface RequestContext {
  lag: number;
  forward(path: string, body: string): Promise<Answer>;
  faults: NodeFaults;
  draw(): number;
}

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

// ---- JSON-RPC: bitcoind and Ethereum nodes ----

/** An answer in the node's own envelope: bitcoind's 1.0 (`result`, `error`, `id`), Ethereum's 2.0. */
const jsonRpcAnswer = (
  chain: "bitcoin" | "ethereum",
  call: JsonRpcCall,
  member: { result: unknown } | { error: { code: number; message: string } },
) =>
  JSON.stringify(
    chain === "bitcoin"
      ? { result: null, error: null, ...member, id: call.id ?? null }
      : { jsonrpc: "2.0", id: call.id ?? null, ...member },
  );

/** The `result` of an answer body, for reading heights only (the bytes sent on stay the upstream's). */
function resultOf(answer: Answer): unknown {
  try {
    return (JSON.parse(answer.body) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}

async function answerJsonRpc(
  chain: "bitcoin" | "ethereum",
  path: string,
  body: string,
  context: RequestContext,
  counters: NodeFaultCounters,
): Promise<Answer> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return context.forward(path, body);
  }
  const one = (call: JsonRpcCall) =>
    chain === "bitcoin" ? answerBitcoinCall(call, path, context, counters) : answerEthereumCall(call, path, context, counters);
  if (!Array.isArray(parsed))
    return typeof parsed === "object" && parsed !== null ? one(parsed as JsonRpcCall) : context.forward(path, body);
  if (parsed.length === 0) return context.forward(path, body);
  // Call by call, in order (the schedule stays reproducible), each answer's bytes kept.
  const answers: string[] = [];
  for (const call of parsed as JsonRpcCall[]) answers.push((await one(call)).body);
  return { status: 200, contentType: JSON_TYPE, body: `[${answers.join(",")}]` };
}

/** The served tip: the upstream's minus the view's lag. */
async function servedTip(context: RequestContext, upstreamTip: () => Promise<number>): Promise<number> {
  return Math.max(0, (await upstreamTip()) - context.lag);
}

async function answerBitcoinCall(call: JsonRpcCall, path: string, context: RequestContext, counters: NodeFaultCounters): Promise<Answer> {
  const forward = (forwarded: JsonRpcCall) => context.forward(path, JSON.stringify(forwarded));
  const error = (member: { code: number; message: string }): Answer => {
    counters.missingBlocks++;
    return { status: BITCOIN_ERROR_STATUS, contentType: JSON_TYPE, body: jsonRpcAnswer("bitcoin", call, { error: member }) };
  };
  if (context.lag === 0) return forward(call);
  const tip = () => servedTip(context, async () => Number(resultOf(await forward({ ...call, method: "getblockcount", params: [] }))));
  const params = call.params ?? [];
  switch (call.method) {
    case "getblockcount": {
      counters.tipsRewritten++;
      return { status: 200, contentType: JSON_TYPE, body: jsonRpcAnswer("bitcoin", call, { result: await tip() }) };
    }
    case "getbestblockhash": {
      counters.tipsRewritten++;
      return forward({ ...call, method: "getblockhash", params: [await tip()] });
    }
    case "getblockhash":
      return Number(params[0]) > (await tip()) ? error(BITCOIN_HEIGHT_OUT_OF_RANGE) : forward(call);
    case "getblock":
    case "getblockheader": {
      const answer = await forward(call);
      const height = (resultOf(answer) as { height?: number } | undefined)?.height;
      return height !== undefined && height > (await tip()) ? error(BITCOIN_BLOCK_NOT_FOUND) : answer;
    }
    default:
      return forward(call);
  }
}

const quantity = (value: number) => `0x${value.toString(16)}`;

/** EIP-1474 "method not found" and Hardhat's "method not supported". */
const UNSUPPORTED_METHOD_CODES = new Set([-32601, -32004]);

/**
 * `eth_getBlockReceipts` for a node without it (Hardhat 2): the block's receipts one
 * `eth_getTransactionReceipt` at a time, as geth and the providers answer it (null for no block).
 */
async function blockReceipts(call: JsonRpcCall, send: (call: JsonRpcCall) => Promise<Answer>): Promise<Answer> {
  const answer = await send(call);
  const code = (JSON.parse(answer.body) as { error?: { code?: number } }).error?.code;
  if (code === undefined || !UNSUPPORTED_METHOD_CODES.has(code)) return answer;
  const [block] = call.params ?? [];
  const byHash = typeof block === "string" && block.length === 66;
  const header = resultOf(
    await send({ ...call, method: byHash ? "eth_getBlockByHash" : "eth_getBlockByNumber", params: [block, false] }),
  ) as { transactions: string[] } | null;
  const receipts =
    header &&
    (await Promise.all(
      header.transactions.map(async (hash) => resultOf(await send({ ...call, method: "eth_getTransactionReceipt", params: [hash] }))),
    ));
  return { status: 200, contentType: JSON_TYPE, body: jsonRpcAnswer("ethereum", call, { result: receipts }) };
}

async function answerEthereumCall(call: JsonRpcCall, path: string, context: RequestContext, counters: NodeFaultCounters): Promise<Answer> {
  const send = (forwarded: JsonRpcCall) => context.forward(path, JSON.stringify(forwarded));
  const forward = (forwarded: JsonRpcCall) =>
    forwarded.method === "eth_getBlockReceipts" ? blockReceipts(forwarded, send) : send(forwarded);
  const result = (value: unknown): Answer => ({
    status: 200,
    contentType: JSON_TYPE,
    body: jsonRpcAnswer("ethereum", call, { result: value }),
  });
  const missing = () => (counters.missingBlocks++, result(null));
  if (call.method === "eth_getBlockReceipts" && context.draw() < context.faults.nullReceipts) {
    counters.nullReceipts++;
    return result(null);
  }
  const traces = call.method === "debug_traceBlockByHash" || call.method === "trace_block";
  if (traces && context.draw() < context.faults.failedTraces) {
    counters.failedTraces++;
    return {
      status: 200,
      contentType: JSON_TYPE,
      body: jsonRpcAnswer("ethereum", call, { error: { code: -32000, message: "execution timeout" } }),
    };
  }
  if (context.lag === 0) return forward(call);
  const tip = () => servedTip(context, async () => Number(resultOf(await forward({ ...call, method: "eth_blockNumber", params: [] }))));
  const params = call.params ?? [];
  /** A block number or tag: the served tip for "latest", a number for a number, undefined for other tags. */
  const heightOf = async (tag: unknown) =>
    tag === "latest" ? tip() : typeof tag === "string" && tag.startsWith("0x") && tag.length <= 18 ? Number(tag) : undefined;
  /** The block number of a block (`number`), a receipt or the first of a block's receipts (`blockNumber`). */
  const blockNumberOf = (answer: Answer) => {
    const value = resultOf(answer);
    const item = (Array.isArray(value) ? value[0] : value) as { number?: unknown; blockNumber?: unknown } | null | undefined;
    const number = item?.blockNumber ?? item?.number;
    return typeof number === "string" ? Number(number) : undefined;
  };
  switch (call.method) {
    case "eth_blockNumber":
      counters.tipsRewritten++;
      return result(quantity(await tip()));
    case "eth_getBlockByNumber": {
      const height = await heightOf(params[0]);
      if (height === undefined) return forward(call);
      if (height > (await tip())) return missing();
      if (params[0] === "latest") counters.tipsRewritten++;
      return forward({ ...call, params: [quantity(height), ...params.slice(1)] });
    }
    case "debug_traceBlockByHash":
    case "trace_block": {
      const [block] = params;
      const header = resultOf(
        await forward({
          ...call,
          method: call.method === "trace_block" ? "eth_getBlockByNumber" : "eth_getBlockByHash",
          params: [block, false],
        }),
      ) as { number?: string } | null;
      if (header?.number === undefined || Number(header.number) <= (await tip())) return forward(call);
      counters.missingBlocks++;
      return {
        status: 200,
        contentType: JSON_TYPE,
        body: jsonRpcAnswer("ethereum", call, { error: { code: -32000, message: `block ${String(block)} not found` } }),
      };
    }
    case "eth_getBlockByHash":
    case "eth_getBlockReceipts":
    case "eth_getTransactionReceipt": {
      // eth_getBlockReceipts takes a number, a tag or a hash: read the block's number from the answer.
      const answer = await forward(call);
      const number = blockNumberOf(answer);
      return number !== undefined && number > (await tip()) ? missing() : answer;
    }
    default:
      return forward(call);
  }
}

// ---- java-tron's HTTP API ----

async function answerTron(url: string, body: string, context: RequestContext, counters: NodeFaultCounters): Promise<Answer> {
  const [path = "/", query] = url.split("?", 2) as [string, string | undefined];
  const suffix = query === undefined ? "" : `?${query}`;
  const api = /^\/(wallet|walletsolidity)\/(\w+)$/.exec(path);
  const method = api?.[2];
  const json = (value: unknown): Answer => ({ status: 200, contentType: JSON_TYPE, body: JSON.stringify(value) });
  if (method === "gettransactioninfobyblocknum" && context.draw() < context.faults.emptyTransactionInfo) {
    counters.emptyTransactionInfo++;
    return json([]);
  }
  if (!api || context.lag === 0) return context.forward(url, body);
  const prefix = `/${api[1]}`;
  const numberOf = (answer: Answer) => {
    try {
      return (JSON.parse(answer.body) as { block_header?: { raw_data?: { number?: number } } }).block_header?.raw_data?.number;
    } catch {
      return undefined;
    }
  };
  const tip = () => servedTip(context, async () => numberOf(await context.forward(`${prefix}/getnowblock`, "{}")) ?? 0);
  let request: Record<string, unknown> = {};
  try {
    request = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return context.forward(url, body);
  }
  const missing = (value: unknown) => (counters.missingBlocks++, json(value));
  switch (method) {
    case "getnowblock": {
      counters.tipsRewritten++;
      return context.forward(`${prefix}/getblockbynum${suffix}`, JSON.stringify({ num: await tip() }));
    }
    case "getblockbynum":
      return Number(request.num ?? 0) > (await tip()) ? missing({}) : context.forward(url, body);
    case "gettransactioninfobyblocknum":
      return Number(request.num ?? 0) > (await tip()) ? missing([]) : context.forward(url, body);
    case "getblock":
    case "getblockbyid": {
      const idOrNum = String(request.id_or_num ?? request.value ?? "");
      if (method === "getblock" && idOrNum === "") {
        counters.tipsRewritten++;
        return context.forward(url, JSON.stringify({ ...request, id_or_num: String(await tip()) }));
      }
      const answer = await context.forward(url, body);
      const number = numberOf(answer);
      return number !== undefined && number > (await tip()) ? missing({}) : answer;
    }
    default:
      return context.forward(url, body);
  }
}
