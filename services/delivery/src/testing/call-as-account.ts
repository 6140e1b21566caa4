/**
 * One JSON call to an internal service (delivery, xpub) as `accountId`, with the headers the gateway
 * would set (the account, and the internal token services under test are started with, which a
 * service started without one ignores): its status and parsed body ({} when empty).
 */
import { ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { TEST_INTERNAL_TOKEN } from "@chaingate/testing";

export async function callAsAccount<Body = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  accountId: number,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: "application/json",
      [ACCOUNT_ID_HEADER]: String(accountId),
      [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body };
}
