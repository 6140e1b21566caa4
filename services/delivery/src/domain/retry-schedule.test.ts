import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, RETRY_DELAYS_MS } from "./retry-schedule.ts";

const noJitter = () => 0.5;

describe("the retry schedule (spec: Retries)", () => {
  it("waits 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after attempts 1..8: nine attempts in all", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => nextRetryDelayMs(i + 1, 1, null, noJitter));
    expect(delays).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
    expect(MAX_ATTEMPTS).toBe(9);
  });

  it("jitters each delay by at most ±20 %", () => {
    expect(nextRetryDelayMs(3, 1, null, () => 0)).toBe(240_000);
    expect(nextRetryDelayMs(3, 1, null, () => 1)).toBe(360_000);
  });

  it("scales the whole schedule (DELIVERY_RETRY_SCALE)", () => {
    expect(nextRetryDelayMs(3, 0.001, null, noJitter)).toBe(300);
  });

  it("waits for a longer Retry-After, capped at the longest step; a shorter one does not hurry it", () => {
    expect(nextRetryDelayMs(2, 1, 60_000, noJitter)).toBe(60_000);
    expect(nextRetryDelayMs(2, 1, 1_000, noJitter)).toBe(5_000);
    expect(nextRetryDelayMs(2, 1, 7 * 86_400_000, noJitter)).toBe(Math.max(...RETRY_DELAYS_MS));
  });

  it("reads Retry-After as delta seconds or an HTTP date, and nothing else", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
