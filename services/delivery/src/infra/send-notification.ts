/**
 * One HTTP attempt: a POST on node:http(s) through request-filtering-agent, which checks the
 * address the socket actually connects to (so a name re-pointed at a private address after the
 * save-time check is refused). node:http never follows a redirect; one timer bounds the whole
 * exchange (connect, send, the answer's last byte); nothing is retried here.
 *
 * node:http rather than got: got's option merging, hooks and timers cost about as much CPU per
 * notification as the rest of the delivery together (profiled), and none of its features is used.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/** Characters of the subscriber's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1_000;
/** Bytes of the answer read for the excerpt (a UTF-8 character takes at most 4); the rest is drained unread. */
const RESPONSE_EXCERPT_BYTES = RESPONSE_EXCERPT_CHARS * 4;
const USER_AGENT = "chaingate-webhooks/1";
/** How request-filtering-agent words a refusal (it sets no error code). */
const REFUSAL = /^DNS lookup .* is not allowed\b/;
/** Starts the logged error of a refused attempt. */
export const REFUSED_PREFIX = "refused by the connect-time address check: ";

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The connect-time address check refused the address the name resolved to (no connection made). */
  refused: boolean;
  responseExcerpt: string | null;
  retryAfter: string | undefined;
}

export type SendNotification = (url: string, body: string, headers: Record<string, string>) => Promise<AttemptResult>;

export function createSender(options: { timeoutMs: number; allowCidrs: string[] }): SendNotification {
  // No socket cap per host here: the worker bounds attempts per webhook, and a per-host cap would
  // let a dead webhook starve a healthy one on the same host.
  const agentOptions = { allowIPAddressList: options.allowCidrs, keepAlive: true };
  const agents = { http: new RequestFilteringHttpAgent(agentOptions), https: new RequestFilteringHttpsAgent(agentOptions) };
  return (url, body, headers) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, "latencyMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      let request: http.ClientRequest | undefined;
      const fail = (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        const refused = REFUSAL.test(message);
        finish({
          statusCode: null,
          error: refused ? `${REFUSED_PREFIX}${message}` : message,
          refused,
          responseExcerpt: null,
          retryAfter: undefined,
        });
      };
      const timer = setTimeout(() => {
        fail(new Error(`no complete answer within ${options.timeoutMs} ms`));
        request?.destroy();
      }, options.timeoutMs);
      try {
        const target = new URL(url);
        const secure = target.protocol === "https:";
        if (!secure && target.protocol !== "http:") throw new Error(`unsupported protocol ${target.protocol}`);
        request = (secure ? https : http).request(target, {
          method: "POST",
          agent: secure ? agents.https : agents.http,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": USER_AGENT, ...headers },
        });
      } catch (error) {
        fail(error);
        return;
      }
      request.on("error", fail);
      request.on("response", (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < RESPONSE_EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        response.on("error", fail);
        response.on("close", () => {
          if (!response.complete) fail(new Error("the answer ended early"));
        });
        response.on("end", () => {
          const statusCode = response.statusCode ?? 0;
          const retryAfter = response.headers["retry-after"];
          finish({
            statusCode,
            error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`,
            refused: false,
            responseExcerpt: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_EXCERPT_CHARS),
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          });
        });
      });
      request.end(body);
    });
  };
}
