import { Writable } from "node:stream";
import { context, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { describe, expect, it } from "vitest";
import { createLogger } from "./create-logger.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, destination };
}

describe("createLogger", () => {
  it("writes JSON lines with service, level and message", () => {
    const { lines, destination } = capture();
    createLogger({ service: "gateway", destination }).info({ port: 8080 }, "listening");
    expect(lines[0]).toMatchObject({ service: "gateway", level: "info", message: "listening", port: 8080 });
  });

  it("redacts mnemonics, passphrases and the internal and operator tokens, as headers and as fields", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: "gateway", destination });
    logger.info({
      req: { headers: { "x-chaingate-internal-token": "internal-tok-1", "x-operator-token": "operator-tok-2", accept: "text/plain" } },
      body: { mnemonic: "abandon abandon about", passphrase: "p4ss-phrase" },
      config: { INTERNAL_TOKEN: "internal-tok-3", CONSOLE_OPERATOR_TOKEN: "operator-tok-4" },
      internalToken: "internal-tok-5",
      operatorToken: "operator-tok-6",
    });
    const line = JSON.stringify(lines[0]);
    for (const secret of [
      "internal-tok-1",
      "operator-tok-2",
      "abandon abandon about",
      "p4ss-phrase",
      "internal-tok-3",
      "operator-tok-4",
      "internal-tok-5",
      "operator-tok-6",
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("text/plain");
  });

  it("redacts API keys, Authorization, private keys, secrets and passwords", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: "gateway", destination });
    logger.info({
      req: { headers: { authorization: "Bearer abc", "x-api-key": "k".repeat(40), accept: "application/json" } },
      body: { private_key: "deadbeef", to_address: "T..." },
      webhook: { secret: "whsec_00ff" },
      apiKey: "k".repeat(40),
      config: { password: "hunter2" },
    });
    const line = JSON.stringify(lines[0]);
    for (const secret of ["Bearer abc", "k".repeat(40), "deadbeef", "whsec_00ff", "hunter2"]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("application/json");
    expect(line).toContain("T...");
  });

  it("carries the active trace and span ids, and none outside a span", () => {
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    try {
      const { lines, destination } = capture();
      const logger = createLogger({ service: "gateway", destination });
      const spanContext = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: TraceFlags.SAMPLED };
      context.with(trace.setSpan(context.active(), trace.wrapSpanContext(spanContext)), () => logger.info("inside"));
      logger.info("outside");
      expect(lines[0]).toMatchObject({ message: "inside", trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: "01" });
      expect(lines[1]).not.toHaveProperty("trace_id");
    } finally {
      context.disable();
    }
  });
});
