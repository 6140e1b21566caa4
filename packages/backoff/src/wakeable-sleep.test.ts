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
  it("says whether a wake ended the pause, and ends it when the signal aborts", async () => {
    const pause = createWakeableSleep();
    expect(await pause.sleep(20)).toBe(false);
    const sleeping = pause.sleep(10_000);
    pause.wake();
    expect(await sleeping).toBe(true);
    const stop = new AbortController();
    const started = Date.now();
    const stopping = pause.sleep(10_000, stop.signal);
    stop.abort();
    expect(await stopping).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pause.sleep(10_000, stop.signal)).toBe(false);
  });
  it("coalesces wakes that come while nobody sleeps", async () => {
    const pause = createWakeableSleep();
    pause.wake();
    pause.wake();
    expect(await pause.sleep(10_000)).toBe(true);
    const started = Date.now();
    expect(await pause.sleep(50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });
});
