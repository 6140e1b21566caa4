/**
 * pino, JSON lines, with the active OpenTelemetry trace and span ids on every line and secrets
 * (API keys, Authorization, private keys, mnemonics, webhook secrets, passwords, the internal and operator
 * tokens) redacted wherever they sit.
 */
import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

const SECRET_KEYS = [
  "authorization",
  "x-api-key",
  "apiKey",
  "api_key",
  "private_key",
  "privateKey",
  "secret",
  "password",
  "passphrase",
  "mnemonic",
  "xprv",
  "zprv",
  // The service-to-service and operator credentials (@chaingate/http's and the account routes' header names), as headers, settings and fields.
  "x-chaingate-internal-token",
  "x-operator-token",
  "INTERNAL_TOKEN",
  "CONSOLE_OPERATOR_TOKEN",
  "internalToken",
  "operatorToken",
];

/** Redaction paths: each secret key at the top level, one level down, and in request/response headers. */
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => {
  const member = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
  const top = member.startsWith(".") ? key : member;
  return [top, `*${member}`, `req.headers${member}`, `headers${member}`, `*.headers${member}`];
});

export interface CreateLoggerOptions {
  service: string;
  level?: LoggerOptions["level"];
  /** Where lines go; stdout when omitted (tests pass a stream to read them). */
  destination?: DestinationStream;
  /**
   * false only for loggers whose lines have a fixed, secret-free shape (an access log): redaction
   * walks every line and is measurable on a hot path.
   */
  redact?: boolean;
}

export const BUFFERED_FLUSH_MS = 1_000;
const BUFFER_BYTES = 8 * 1024;

export function createLogger({ service, level = "info", destination, redact = true }: CreateLoggerOptions): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    messageKey: "message",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(redact ? { redact: { paths: REDACTED_PATHS, censor: "[redacted]" } } : {}),
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A line destination: stdout, or a stream tests read. */
export interface LineDestination {
  write(line: string): unknown;
}

/**
 * stdout written in batches (at least every BUFFERED_FLUSH_MS, and on exit) instead of one write
 * syscall per line: for high-volume lines such as an access log. `flush()` writes what is pending.
 */
export function bufferedStdout(): LineDestination & DestinationStream & { flush(): void } {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  // A quiet process must not hold its last lines for long.
  setInterval(() => stream.flush(), BUFFERED_FLUSH_MS).unref();
  process.once("exit", () => stream.flushSync());
  return stream;
}

function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span || !isSpanContextValid(span.spanContext())) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}`.slice(-2) };
}
