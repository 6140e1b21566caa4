/**
 * The devnode's HTTP front: java-tron's request conventions (JSON or form bodies, empty bodies, `visible`
 * in the body of a POST or the query of a GET, HTTP 200 for every API answer) around the wallet handlers, plus /jsonrpc, /healthcheck
 * and the admin endpoint that produces a block.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { JsonRpcHandler } from "./json-rpc.ts";
import type { JsonObject } from "./transaction-json.ts";
import { errorBody } from "./wallet-api/java-error.ts";
import type { WalletHandler, WalletRequest } from "./wallet-api/wallet-request.ts";

/** Largest request body accepted (java-tron's default `maxHttpPostBodySize`, 4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Endpoints java-tron serves only on POST (a GET is answered 405). */
const POST_ONLY = new Set([
  "broadcasttransaction",
  "createtransaction",
  "transferasset",
  "triggersmartcontract",
  "triggerconstantcontract",
  "estimateenergy",
]);
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/**
 * Servlets that read only the query string, whatever the method (their doPost calls doGet, or the reverse:
 * GetNowBlockServlet, GetNodeInfoServlet, GetChainParametersServlet): `visible` in a POST body is ignored.
 */
const QUERY_ONLY = new Set(["getnowblock", "getnodeinfo", "getchainparameters"]);

/** What the HTTP front needs from the rest of the devnode. */
export interface HttpRoutes {
  wallet: Map<string, WalletHandler>;
  solidity: Map<string, WalletHandler>;
  jsonRpc: JsonRpcHandler;
  /** Produces a block now and returns its JSON. */
  produceBlock: () => unknown;
  /** Replaces the newest `depth` blocks; throws RangeError for a depth or option it cannot serve. */
  reorg: (depth: number, options: { blocks?: number; requeue?: boolean }) => unknown;
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // An oversized body is drained, not kept, so the client still gets java-tron's error answer.
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => (size > MAX_BODY_BYTES ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks).toString("utf8"))));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown, contentType = JSON_CONTENT_TYPE): void {
  if (response.headersSent) return;
  const text = typeof body === "string" ? body : JSON.stringify(body) + "\n";
  response.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === "string" && value.toLowerCase() === "true");
}

function queryParams(url: URL): JsonObject {
  return Object.fromEntries(url.searchParams.entries());
}

type ParsedBody = { ok: true; params: JsonObject } | { ok: false; error: unknown };

/** Parses a POST body the way java-tron's PostParams does: JSON, or form fields, or nothing. */
function parseBody(body: string, contentType: string | undefined, endpoint: string): ParsedBody {
  const trimmed = body.trim();
  if (trimmed === "") return { ok: true, params: {} };
  if (contentType?.includes("application/x-www-form-urlencoded") && !trimmed.startsWith("{")) {
    return { ok: true, params: Object.fromEntries(new URLSearchParams(trimmed).entries()) };
  }
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { ok: false, error: errorBody("class com.alibaba.fastjson.JSONException", "can not cast to JSONObject.") };
    }
    return { ok: true, params: parsed as JsonObject };
  } catch (error) {
    // java-tron's broadcast path fails on malformed JSON with a NullPointerException (research §6).
    if (endpoint === "broadcasttransaction") return { ok: false, error: errorBody("class java.lang.NullPointerException", "null") };
    return { ok: false, error: errorBody("class com.alibaba.fastjson.JSONException", `syntax error, ${(error as Error).message}`) };
  }
}

async function handleWallet(
  handlers: Map<string, WalletHandler>,
  solidity: boolean,
  endpoint: string,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
): Promise<void> {
  const handler = handlers.get(endpoint);
  if (!handler) return send(response, 404, "Not Found\n", "text/plain; charset=utf-8");
  const method = request.method === "GET" ? "GET" : request.method === "POST" ? "POST" : undefined;
  if (!method || (method === "GET" && POST_ONLY.has(endpoint))) {
    return send(response, 405, "HTTP method not allowed\n", "text/plain; charset=utf-8");
  }
  // GET reads the query string (Util.getVisible); POST reads only the body (PostParams, Util.getVisiblePost).
  let params: JsonObject = queryParams(url);
  let jsonText: string | undefined;
  if (method === "POST") {
    const body = await readBody(request);
    if (!QUERY_ONLY.has(endpoint)) {
      const parsed = parseBody(body, request.headers["content-type"], endpoint);
      if (!parsed.ok) return send(response, 200, parsed.error);
      params = parsed.params;
      if (body.trim().startsWith("{")) jsonText = body;
    }
  }
  const walletRequest: WalletRequest = {
    params,
    visible: isTrue(params.visible),
    solidity,
    method,
    ...(jsonText === undefined ? {} : { jsonText }),
  };
  send(response, 200, handler(walletRequest));
}

/** `POST /admin/reorg {"depth":N,"blocks"?:M,"requeue"?:bool}`: 200 with the result, 400 `{"error"}` for bad input. */
function adminReorg(routes: HttpRoutes, body: string): [number, unknown] {
  let params: unknown;
  try {
    params = JSON.parse(body.trim() === "" ? "{}" : body);
  } catch {
    return [400, { error: 'body must be JSON: {"depth":N,"blocks"?:M,"requeue"?:true}' }];
  }
  const { depth, blocks, requeue } = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
  if (
    typeof depth !== "number" ||
    (blocks !== undefined && typeof blocks !== "number") ||
    (requeue !== undefined && typeof requeue !== "boolean")
  ) {
    return [400, { error: "depth (number), blocks (number, optional) and requeue (boolean, optional) expected" }];
  }
  try {
    return [200, routes.reorg(depth, { ...(blocks === undefined ? {} : { blocks }), ...(requeue === undefined ? {} : { requeue }) })];
  } catch (error) {
    if (error instanceof RangeError) return [400, { error: error.message }];
    throw error;
  }
}

/** Creates (but does not start) the HTTP server. */
export function createHttpServer(routes: HttpRoutes): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://devnode.invalid");
    const path = url.pathname.replace(/\/+$/, "");
    const route = async (): Promise<void> => {
      if (path.startsWith("/wallet/")) return handleWallet(routes.wallet, false, path.slice("/wallet/".length), request, url, response);
      if (path.startsWith("/walletsolidity/"))
        return handleWallet(routes.solidity, true, path.slice("/walletsolidity/".length), request, url, response);
      if (path === "/healthcheck") return send(response, 200, { status: "ok" });
      if (path === "/admin/produceblock") {
        if (request.method !== "POST") return send(response, 405, "HTTP method not allowed\n", "text/plain; charset=utf-8");
        await readBody(request);
        return send(response, 200, routes.produceBlock());
      }
      if (path === "/admin/reorg") {
        if (request.method !== "POST") return send(response, 405, "HTTP method not allowed\n", "text/plain; charset=utf-8");
        return send(response, ...adminReorg(routes, await readBody(request)));
      }
      if (path === "/jsonrpc") {
        if (request.method !== "POST") return send(response, 405, "HTTP method not allowed\n", "text/plain; charset=utf-8");
        return send(response, 200, routes.jsonRpc(await readBody(request)));
      }
      send(response, 404, "Not Found\n", "text/plain; charset=utf-8");
    };
    route().catch((error: unknown) => {
      if (error instanceof BodyTooLarge) {
        send(response, 200, errorBody("class java.lang.Exception", `body size is too big, the limit is ${MAX_BODY_BYTES}`));
        return;
      }
      send(response, 200, errorBody("class java.lang.Exception", error instanceof Error ? error.message : String(error)));
    });
  });
}
