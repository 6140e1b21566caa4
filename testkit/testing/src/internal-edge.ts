/**
 * A service at its own internal HTTP edge, called as the gateway calls it: the gateway forwards
 * the public path unchanged and adds the account it authenticated and the internal token
 * (@chaingate/http internal-headers.ts). Tests of a service's own behaviour use this; tests of the
 * whole path through the gateway live in drills/src/e2e.
 */
import type { Server } from "node:http";
import { ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { checkAnswers } from "./openapi-answers/check-answers.ts";

/** The INTERNAL_TOKEN a service under test is started with (at least MIN_INTERNAL_TOKEN_LENGTH). */
export const TEST_INTERNAL_TOKEN = "chaingate-test-internal-token-0123456789";

export interface InternalEdge {
  url: string;
  /** The headers the gateway adds for `accountId`. */
  headersFor(accountId: number): Record<string, string>;
  /** A JSON request to `path` as the gateway forwards it for `accountId`; `init.headers` win. */
  request(accountId: number, path: string, init?: RequestInit): Promise<Response>;
}

/**
 * The edge of a service: one served in this process (ServedApp of @chaingate/http) has its answers
 * on documented paths checked against the OpenAPI document, as a test gateway's are
 * (check-answers.ts); one in another process is given by its URL alone.
 */
export function internalEdge(
  service: { url: string; server?: { server: Server } },
  internalToken: string = TEST_INTERNAL_TOKEN,
): InternalEdge {
  if (service.server) checkAnswers(service.server.server);
  const headersFor = (accountId: number) => ({ [ACCOUNT_ID_HEADER]: String(accountId), [INTERNAL_TOKEN_HEADER]: internalToken });
  return {
    url: service.url,
    headersFor,
    request: (accountId, path, init = {}) =>
      fetch(`${service.url}${path}`, {
        ...init,
        headers: { "content-type": "application/json", ...headersFor(accountId), ...init.headers },
      }),
  };
}

/** Accounts as the gateway would have authenticated them: each call gives the next id (1, 2, …). */
export function accountSequence(): () => { accountId: number } {
  let last = 0;
  return () => ({ accountId: ++last });
}
