import { describe, expect, it } from "vitest";
import { createWakeableSleep } from "./wakeable-sleep.ts";

describe("createWakeableSleep", () => {
  it("ends a pause early when woken", async () => {
    const pause = createWakeableSleep();
    const started = Date.now();
    const sleeping = pause.sleep(10_000);
    pause.wake();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
  it("a wake with no pause under way ends the next pause at once, and only that one", async () => {
    const pause = createWakeableSleep();
    pause.wake();
    const started = Date.now();
    await pause.sleep(10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    await pause.sleep(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });
});
