import { Writable } from "node:stream";
import { createLogger } from "@chaingate/logger";
import { describe, expect, it } from "vitest";
import { createAccessLog, type AccessLogEntry } from "./access-log.ts";

function lines() {
  const written: string[] = [];
  return { written, destination: { write: (line: string) => written.push(line) } };
}

const entry: AccessLogEntry = {
  traceId: "0af7651916cd43dd8448eb211c80319c",
  requestId: "req-1",
  method: "GET",
  path: "/api/v1/btc/health",
  status: 200,
  upstream: "btc-proxy",
  accountId: 7,
  durationMs: 0.4231,
};

/** What the service's pino logger writes for the same fields (the access log's former shape). */
function pinoLine(fields: AccessLogEntry): Record<string, unknown> {
  let line = "";
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => ((line = chunk.toString("utf8")), done()) });
  createLogger({ service: "gateway", destination, redact: false }).info(
    {
      trace_id: fields.traceId,
      request_id: fields.requestId,
      method: fields.method,
      path: fields.path,
      status: fields.status,
      upstream: fields.upstream,
      account_id: fields.accountId,
      duration_ms: fields.durationMs,
    },
    "request",
  );
  return JSON.parse(line) as Record<string, unknown>;
}

describe("createAccessLog", () => {
  it("writes one JSON line with the fields and key order of the service's pino lines", () => {
    const { written, destination } = lines();
    createAccessLog("gateway", destination)(entry);
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith("}\n")).toBe(true);
    const line = JSON.parse(written[0]!) as Record<string, unknown>;
    const expected = pinoLine(entry);
    expect(Object.keys(line)).toEqual(Object.keys(expected));
    expect({ ...line, time: undefined }).toEqual({ ...expected, time: undefined });
    expect(Date.parse(line.time as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("leaves out what a refused request does not have, as pino leaves out undefined fields", () => {
    const refused = { ...entry, traceId: undefined, accountId: undefined, status: 401 };
    const { written, destination } = lines();
    createAccessLog("gateway", destination)(refused);
    const line = JSON.parse(written[0]!) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(Object.keys(pinoLine(refused)));
    expect(line).not.toHaveProperty("trace_id");
    expect(line).not.toHaveProperty("account_id");
  });

  it("keeps a client's path and request id as data, whatever characters they hold", () => {
    const hostile = { ...entry, path: '/api/v1/btc/"},"status":1,\n\u0000\u2028x', requestId: 'a"b\\c' };
    const { written, destination } = lines();
    createAccessLog("gateway", destination)(hostile);
    expect(written[0]!.split("\n")).toHaveLength(2);
    expect(JSON.parse(written[0]!)).toMatchObject({ path: hostile.path, request_id: hostile.requestId, status: 200 });
  });
});
