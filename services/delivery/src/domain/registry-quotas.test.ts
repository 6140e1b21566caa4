import { describe, expect, it } from "vitest";
import { admitTestEvent } from "./registry-quotas.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);

describe("the test event quota", () => {
  it("admits up to the quota in any 60 s and says when the next fits", () => {
    const sent = [at(0), at(10_000), at(20_000)];
    expect(admitTestEvent(sent.slice(0, 2), at(30_000), 3)).toMatchObject({ admitted: true });
    expect(admitTestEvent(sent, at(30_000), 3)).toEqual({ admitted: false, retryAfterSeconds: 30 });
    expect(admitTestEvent(sent, at(60_001), 3)).toMatchObject({ admitted: true });
  });

  it("never asks to wait past the window, when a recorded time lies ahead of now (a transaction that began later committed first)", () => {
    const sent = [at(1_500), at(1_600), at(1_700)];
    expect(admitTestEvent(sent, at(1_000), 3)).toEqual({ admitted: false, retryAfterSeconds: 60 });
  });
});
