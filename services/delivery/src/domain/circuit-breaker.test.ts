import { describe, expect, it } from "vitest";
import { breakerCoolDownEnd, isBreakerOpen, isUnreachable } from "./circuit-breaker.ts";

const settings = { threshold: 5, coolDownMs: 30_000 };
const now = Date.parse("2026-11-25T12:00:00Z");

describe("a webhook's circuit breaker", () => {
  it("counts only attempts that got no answer", () => {
    expect(isUnreachable({ statusCode: null })).toBe(true);
    // Any status is an answer: the endpoint is alive, the job's own retry schedule deals with it.
    for (const statusCode of [200, 301, 404, 500, 503]) expect(isUnreachable({ statusCode })).toBe(false);
    // Refused by the connect-time address check: nothing was waited for.
    expect(isUnreachable({ statusCode: null, refused: true })).toBe(false);
  });

  it("opens at the threshold of attempts in a row without an answer", () => {
    expect(isBreakerOpen(0, settings)).toBe(false);
    expect(isBreakerOpen(4, settings)).toBe(false);
    expect(isBreakerOpen(5, settings)).toBe(true);
    expect(isBreakerOpen(50, settings)).toBe(true);
  });

  it("spaces attempts by the cool-down while open, not at all while closed", () => {
    expect(breakerCoolDownEnd(4, settings, now)).toBeNull();
    expect(breakerCoolDownEnd(5, settings, now)).toEqual(new Date(now + 30_000));
    expect(breakerCoolDownEnd(9, settings, now)).toEqual(new Date(now + 30_000));
  });
});
