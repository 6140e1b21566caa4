import { describe, expect, it } from "vitest";
import { AUTO_DISABLE_FAILURES, decideAttempt, shouldAutoDisable, unsentStatus } from "./attempt-outcome.ts";
import { MAX_ATTEMPTS } from "./retry-schedule.ts";

const now = Date.parse("2026-11-25T12:00:00Z");
const noJitter = () => 0.5;

describe("what an attempt's answer does to its job", () => {
  it("any 2xx delivers", () => {
    for (const statusCode of [200, 201, 204, 299])
      expect(decideAttempt({ statusCode }, 1, 1, now, noJitter)).toEqual({ status: "delivered", outcome: "delivered" });
  });

  it("410 Gone fails the job at once, whatever attempts are left", () => {
    expect(decideAttempt({ statusCode: 410 }, 1, 1, now, noJitter)).toEqual({ status: "failed", outcome: "gone" });
  });

  it("3xx, 4xx, 5xx and no answer are retried on the schedule", () => {
    for (const statusCode of [301, 400, 404, 429, 500, 503, null]) {
      expect(decideAttempt({ statusCode }, 2, 1, now, noJitter)).toEqual({ status: "pending", outcome: "retry", delayMs: 5_000 });
    }
  });

  it("a Retry-After longer than the step is waited for", () => {
    expect(decideAttempt({ statusCode: 503, retryAfter: "600" }, 2, 1, now, noJitter)).toEqual({
      status: "pending",
      outcome: "retry",
      delayMs: 600_000,
    });
  });

  it("the last attempt's failure fails the job", () => {
    expect(decideAttempt({ statusCode: 500 }, MAX_ATTEMPTS - 1, 1, now, noJitter).status).toBe("pending");
    expect(decideAttempt({ statusCode: 500 }, MAX_ATTEMPTS, 1, now, noJitter)).toEqual({ status: "failed", outcome: "failed" });
  });

  it("a destination refused by the address check is retried like any failure, and counted as refused", () => {
    expect(decideAttempt({ statusCode: null, refused: true }, 1, 1, now, noJitter)).toEqual({
      status: "pending",
      outcome: "refused",
      delayMs: 0,
    });
    expect(decideAttempt({ statusCode: null, refused: true }, MAX_ATTEMPTS, 1, now, noJitter)).toEqual({
      status: "failed",
      outcome: "refused",
    });
  });
});

describe("what a failed job does to its webhook", () => {
  it(`disables an active webhook at ${AUTO_DISABLE_FAILURES} consecutive failed jobs, not one before`, () => {
    expect(shouldAutoDisable(AUTO_DISABLE_FAILURES - 1, true)).toBe(false);
    expect(shouldAutoDisable(AUTO_DISABLE_FAILURES, true)).toBe(true);
    expect(shouldAutoDisable(AUTO_DISABLE_FAILURES + 5, false)).toBe(false);
  });
});

describe("which claimed jobs are not sent", () => {
  it("skips a deleted webhook's jobs, holds an inactive webhook's events, and sends test events to an inactive webhook", () => {
    expect(unsentStatus({ eventId: "evt_1", isActive: true, deleted: false })).toBeNull();
    expect(unsentStatus({ eventId: "evt_1", isActive: false, deleted: false })).toBe("held");
    expect(unsentStatus({ eventId: "evt_1", isActive: false, deleted: true })).toBe("skipped");
    expect(unsentStatus({ eventId: "test_1", isActive: false, deleted: false })).toBeNull();
    expect(unsentStatus({ eventId: "test_1", isActive: true, deleted: true })).toBe("skipped");
  });
});
