import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "./backoff-delay.ts";

const schedule = { firstMs: 500, maxMs: 5_000 };

describe("backoffDelayMs", () => {
  it("waits firstMs after the first failure and doubles with every failure in a row", () => {
    expect([1, 2, 3, 4].map((failures) => backoffDelayMs(failures, schedule))).toEqual([500, 1_000, 2_000, 4_000]);
  });
  it("stays at maxMs once the doubling reaches it, however long the outage", () => {
    expect(backoffDelayMs(5, schedule)).toBe(5_000);
    expect(backoffDelayMs(1_000_000, schedule)).toBe(5_000);
  });
  it("treats a count below one as the first failure", () => {
    expect(backoffDelayMs(0, schedule)).toBe(500);
  });
});
