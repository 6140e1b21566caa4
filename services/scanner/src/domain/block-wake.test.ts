import { describe, expect, test } from "vitest";
import { BlockWake } from "./block-wake.ts";

/** How long the sleep lasted, and whether an announcement ended it. */
const timed = async (sleeping: Promise<boolean>) => {
  const started = performance.now();
  const announced = await sleeping;
  return { ms: performance.now() - started, announced };
};

describe("BlockWake", () => {
  test("an announcement ends a sleep at once; without one the sleep lasts its interval", async () => {
    const wake = new BlockWake();
    const signal = new AbortController().signal;
    const unwoken = await timed(wake.sleep(60, signal));
    expect(unwoken.ms).toBeGreaterThanOrEqual(55);
    expect(unwoken.announced).toBe(false);
    const sleeping = timed(wake.sleep(10_000, signal));
    wake.announce();
    const woken = await sleeping;
    expect(woken.ms).toBeLessThan(100);
    expect(woken.announced).toBe(true);
  });

  test("an announcement while the follower is busy ends its next sleep at once, once (announcements coalesce)", async () => {
    const wake = new BlockWake();
    const signal = new AbortController().signal;
    wake.announce();
    wake.announce();
    expect(await timed(wake.sleep(10_000, signal))).toMatchObject({ announced: true });
    const next = await timed(wake.sleep(60, signal));
    expect(next.ms).toBeGreaterThanOrEqual(55);
    expect(next.announced).toBe(false);
  });

  test("aborting ends the sleep", async () => {
    const wake = new BlockWake();
    const stop = new AbortController();
    const sleeping = timed(wake.sleep(10_000, stop.signal));
    stop.abort();
    const ended = await sleeping;
    expect(ended.ms).toBeLessThan(100);
    expect(ended.announced).toBe(false);
  });
});
