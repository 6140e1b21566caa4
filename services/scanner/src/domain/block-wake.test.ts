import { describe, expect, test } from "vitest";
import { BlockWake } from "./block-wake.ts";

const timed = async (work: Promise<void>) => {
  const started = performance.now();
  await work;
  return performance.now() - started;
};

describe("BlockWake", () => {
  test("an announcement ends a sleep at once; without one the sleep lasts its interval", async () => {
    const wake = new BlockWake();
    const signal = new AbortController().signal;
    expect(await timed(wake.sleep(60, signal))).toBeGreaterThanOrEqual(55);
    const sleeping = timed(wake.sleep(10_000, signal));
    wake.announce();
    expect(await sleeping).toBeLessThan(100);
  });

  test("an announcement while the follower is busy ends its next sleep at once, once (announcements coalesce)", async () => {
    const wake = new BlockWake();
    const signal = new AbortController().signal;
    wake.announce();
    wake.announce();
    expect(await timed(wake.sleep(10_000, signal))).toBeLessThan(100);
    expect(await timed(wake.sleep(60, signal))).toBeGreaterThanOrEqual(55);
  });

  test("aborting ends the sleep", async () => {
    const wake = new BlockWake();
    const stop = new AbortController();
    const sleeping = timed(wake.sleep(10_000, stop.signal));
    stop.abort();
    expect(await sleeping).toBeLessThan(100);
  });
});
