/**
 * One HTTP attempt: POST with `got` through request-filtering-agent, which checks the address the
 * socket actually connects to (so a name re-pointed at a private address after the save-time check
 * is refused), redirects not followed, a hard timeout, no retries of its own.
 */
import got from "got";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/** Characters of the subscriber's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1_000;

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  retryAfter: string | undefined;
}

export type SendNotification = (url: string, body: string, headers: Record<string, string>) => Promise<AttemptResult>;

export function createSender(options: { timeoutMs: number; allowCidrs: string[] }): SendNotification {
  // No socket cap per host here: the worker bounds attempts per webhook, and a per-host cap would
  // let a dead webhook starve a healthy one on the same host.
  const agentOptions = { allowIPAddressList: options.allowCidrs, keepAlive: true };
  const agent = { http: new RequestFilteringHttpAgent(agentOptions), https: new RequestFilteringHttpsAgent(agentOptions) };
  return async (url, body, headers) => {
    const started = performance.now();
    try {
      const response = await got.post(url, {
        body,
        headers: { "content-type": "application/json", "user-agent": "chaingate-webhooks/1", ...headers },
        agent,
        followRedirect: false,
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: options.timeoutMs },
      });
      return {
        statusCode: response.statusCode,
        latencyMs: Math.round(performance.now() - started),
        error: response.statusCode >= 200 && response.statusCode < 300 ? null : `HTTP ${response.statusCode}`,
        responseExcerpt: response.body.slice(0, RESPONSE_EXCERPT_CHARS),
        retryAfter: response.headers["retry-after"],
      };
    } catch (error) {
      return { statusCode: null, latencyMs: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error), responseExcerpt: null, retryAfter: undefined };
    }
  };
}
