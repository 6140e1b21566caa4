import { describe, expect, it } from "vitest";
import { newTraceparent, traceIdOf } from "./trace-ids.ts";

describe("trace ids", () => {
  it("makes valid, distinct W3C traceparents, across pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const { traceparent, traceId } = newTraceparent();
      expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(traceIdOf(traceparent)).toBe(traceId);
      seen.add(traceId);
    }
    expect(seen.size).toBe(2_000);
  });

  it("reads only well-formed traceparents", () => {
    expect(traceIdOf("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(traceIdOf("00-XYZ-b7ad6b7169203331-01")).toBeUndefined();
    expect(traceIdOf(["a"])).toBeUndefined();
    expect(traceIdOf(undefined)).toBeUndefined();
  });
});
