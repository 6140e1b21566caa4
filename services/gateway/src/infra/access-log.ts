/**
 * The gateway's access log: one JSON line per proxied request, in the shape of the service's
 * pino lines (`level`, `time`, `service`, the fields, `message`). The line has a fixed shape and
 * no secrets, so it is formatted here instead of by pino: pino's generic serialisation, redaction
 * hooks and mixin cost about 5% of the gateway's CPU per request at c=50 (docs/design/gateway.md).
 */
import type { LineDestination } from "@chaingate/logger";

export interface AccessLogEntry {
  /** Absent when the request was refused before it was forwarded. */
  traceId: string | undefined;
  requestId: string;
  method: string | undefined;
  /** The path without its query string. */
  path: string;
  status: number;
  upstream: string;
  /** Absent when the key was not accepted. */
  accountId: number | undefined;
  durationMs: number;
}

export type AccessLog = (entry: AccessLogEntry) => void;

export function createAccessLog(service: string, destination: LineDestination): AccessLog {
  const prefix = `{"level":"info","time":"`;
  const serviceField = `","service":${JSON.stringify(service)}`;
  return (entry) => {
    // Client-controlled values (request id, method, path) go through JSON.stringify; the others are
    // the gateway's own (hex trace ids, route names, numbers).
    destination.write(
      prefix +
        new Date().toISOString() +
        serviceField +
        (entry.traceId === undefined ? "" : `,"trace_id":"${entry.traceId}"`) +
        `,"request_id":${JSON.stringify(entry.requestId)}` +
        (entry.method === undefined ? "" : `,"method":${JSON.stringify(entry.method)}`) +
        `,"path":${JSON.stringify(entry.path)}` +
        `,"status":${entry.status},"upstream":"${entry.upstream}"` +
        (entry.accountId === undefined ? "" : `,"account_id":${entry.accountId}`) +
        `,"duration_ms":${entry.durationMs},"message":"request"}\n`,
    );
  };
}
