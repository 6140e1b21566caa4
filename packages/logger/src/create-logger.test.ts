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
