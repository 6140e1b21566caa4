import { describe, expect, it } from "vitest";
import { createKeyRateLimit } from "./key-rate-limit.ts";

describe("createKeyRateLimit", () => {
  it("admits one second's worth at once, then refuses with the seconds until a token is back", () => {
    const limit = createKeyRateLimit(5);
    const admitted = Array.from({ length: 8 }, () => limit.take(1, 1_000)).filter((wait) => wait === 0);
    expect(admitted).toHaveLength(5);
    expect(limit.take(1, 1_000)).toBe(1);
  });
  it("refills continuously: 200 ms gives one more request at 5 per second", () => {
    const limit = createKeyRateLimit(5);
    for (let i = 0; i < 5; i++) limit.take(1, 0);
    expect(limit.take(1, 100)).toBe(1);
    expect(limit.take(1, 300)).toBe(0);
    expect(limit.take(1, 300)).toBe(1);
  });
  it("keeps keys apart", () => {
    const limit = createKeyRateLimit(1);
    expect(limit.take(1, 0)).toBe(0);
    expect(limit.take(1, 0)).toBe(1);
    expect(limit.take(2, 0)).toBe(0);
  });
});
