/**
 * One call to a service at its internal edge (`internalEdge` of @chaingate/testing) as `accountId`,
 * with the headers the gateway forwards: its status and parsed body ({} when empty). A string body
 * is sent as it is (malformed JSON, say), any other as JSON.
 */
import type { InternalEdge } from "@chaingate/testing";

export async function callAtEdge<Body = Record<string, unknown>>(
  edge: InternalEdge,
  method: string,
  path: string,
  accountId: number,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${edge.url}${path}`, {
    method,
    headers: {
      ...edge.headersFor(accountId),
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body };
}
