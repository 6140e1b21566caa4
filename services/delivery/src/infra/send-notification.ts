/**
 * One HTTP attempt: a POST on node:http(s). The connect-time address check applies the save-time
 * SSRF rule (domain/forbidden-address.ts) to the address the socket actually connects to: a
 * literal IP before anything else, a name's every resolved address in the agent's lookup (so a name
 * re-pointed at a private or platform address after the save-time check is refused).
 * request-filtering-agent stays underneath as a second check (non-unicast addresses). node:http
 * never follows a redirect; one timer bounds the whole exchange (connect, send, the answer's last
 * byte); nothing is retried here.
 *
 * The attempt's error text is shown to the subscriber (the delivery log), who controls the name's
 * DNS: it never holds an address, so the log cannot be used to learn what internal names resolve
 * to. A refused address goes to the operator's log only (`refusedAddress`).
 *
 * node:http rather than got: got's option merging, hooks and timers cost about as much CPU per
 * notification as the rest of the delivery together (profiled), and none of its features is used.
 */
import { ChaingateError } from "@chaingate/errors";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { isForbiddenAddress, type Cidr } from "../domain/forbidden-address.ts";

/** Characters of the subscriber's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1_000;
/** Bytes of the answer read for the excerpt (a UTF-8 character takes at most 4); the rest is drained unread. */
const RESPONSE_EXCERPT_BYTES = RESPONSE_EXCERPT_CHARS * 4;
const USER_AGENT = "chaingate-webhooks/1";
/** How request-filtering-agent words a refusal (it sets no error code); the address follows "DNS lookup". */
const AGENT_REFUSAL = /^DNS lookup (\S+?)\(/;
/** The error of a refused attempt, as stored and shown (no address: see the module comment). */
export const DESTINATION_NOT_ALLOWED = "the destination address is not allowed";

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  /** What went wrong, as the delivery log shows it; null on a 2xx. */
  error: string | null;
  /** The connect-time address check refused the address the name resolved to (no connection made). */
  refused: boolean;
  /** The address refused, for the operator's log only. */
  refusedAddress?: string;
  responseExcerpt: string | null;
  retryAfter: string | undefined;
}

export type SendNotification = (url: string, body: string, headers: Record<string, string>) => Promise<AttemptResult>;

/** Our check refused the address: a literal one, or one the name resolved to. */
class DestinationNotAllowedError extends ChaingateError {
  override name = "DestinationNotAllowedError" as const;
  readonly address: string;
  constructor(address: string) {
    super("destination_not_allowed", `${address} is not allowed`, { retryable: false });
    this.address = address;
  }
}

/** dns.lookup, refusing the name when any address it resolves to is forbidden (as the save-time check does). */
function checkedLookup(allow: readonly Cidr[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address, allow));
      if (forbidden) return callback(new DestinationNotAllowedError(forbidden.address), "", 0);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

/** The refused address when `error` is a refusal of either check, else undefined. */
function refusedAddressOf(error: unknown): string | undefined {
  if (error instanceof DestinationNotAllowedError) return error.address;
  if (error instanceof Error) return AGENT_REFUSAL.exec(error.message)?.[1];
  return undefined;
}

/**
 * The error as the delivery log may show it: a system error by its call and code (`connect
 * ECONNREFUSED`: node appends the address and port), anything else by its message with any IP
 * address in it masked.
 */
export function describeFailure(error: unknown): string {
  const { code, syscall, message } = (error ?? {}) as { code?: unknown; syscall?: unknown; message?: unknown };
  if (typeof code === "string" && typeof syscall === "string") return `${syscall} ${code}`;
  const text = typeof message === "string" && message ? message : typeof code === "string" ? code : String(error);
  return text.replace(/[0-9A-Fa-f:.]{3,}/g, (token) => {
    const bare = token.replace(/[.:]+$/, "");
    return isIP(bare) || isIP(bare.replace(/:\d+$/, "")) ? `[address]${token.slice(bare.length)}` : token;
  });
}

/** `allowCidrs`: WEBHOOK_ALLOW_CIDRS, parsed. */
export function createSender(options: { timeoutMs: number; allowCidrs: readonly Cidr[] }): SendNotification {
  const allow = options.allowCidrs;
  // No socket cap per host here: the worker bounds attempts per webhook, and a per-host cap would
  // let a dead webhook starve a healthy one on the same host. The agent passes `lookup` to every connection.
  const agentOptions = {
    allowIPAddressList: allow.map(([range, bits]) => `${range.toString()}/${bits}`),
    keepAlive: true,
    lookup: checkedLookup(allow),
  };
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
        const refusedAddress = refusedAddressOf(error);
        finish({
          statusCode: null,
          error: refusedAddress === undefined ? describeFailure(error) : DESTINATION_NOT_ALLOWED,
          refused: refusedAddress !== undefined,
          ...(refusedAddress === undefined ? {} : { refusedAddress }),
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
        // A literal address is connected to without a lookup.
        const host = target.hostname.replace(/^\[|\]$/g, "");
        if (isIP(host) && isForbiddenAddress(host, allow)) throw new DestinationNotAllowedError(host);
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
