import type { ServerResponse } from "node:http";

/**
 * A small JSON answer written without express (the gateway's hot path bypasses it), with
 * `extraHeaders` (flat name/value pairs, such as the request id) added.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: readonly string[] = []): void {
  for (let i = 0; i < extraHeaders.length; i += 2) res.setHeader(extraHeaders[i]!, extraHeaders[i + 1]!);
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}
