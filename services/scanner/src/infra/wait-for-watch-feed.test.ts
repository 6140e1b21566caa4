import { silentLogger } from "@chaingate/testing";
import { describe, expect, test } from "vitest";
import { waitForWatchFeed } from "./wait-for-watch-feed.ts";

/** Readings in turn (the last repeats); a reading that is an Error is thrown. */
function readings(...values: Array<{ pending: number; ackedThrough: number; streamLastSequence: number } | Error>) {
  let call = 0;
  const progress = async () => {
    const value = values[Math.min(call++, values.length - 1)]!;
    if (value instanceof Error) throw value;
    return value;
  };
  return { progress, calls: () => call };
}

describe("waitForWatchFeed", () => {
  test("waits until everything up to the stream's newest message at start is stored, even while new changes keep arriving", async () => {
    // A busy registry: something is always pending, but the consumer passes sequence 500 (the newest at start).
    const feed = readings(
      { pending: 500, ackedThrough: 0, streamLastSequence: 500 },
      { pending: 260, ackedThrough: 300, streamLastSequence: 560 },
      { pending: 40, ackedThrough: 520, streamLastSequence: 560 },
    );
    await waitForWatchFeed(feed.progress, new AbortController().signal, silentLogger);
    expect(feed.calls()).toBe(3);
  });

  test("returns as soon as nothing is pending, retries a failed reading, and gives up waiting when aborted", async () => {
    const quiet = readings(new Error("NATS restarting"), { pending: 0, ackedThrough: 0, streamLastSequence: 0 });
    await waitForWatchFeed(quiet.progress, new AbortController().signal, silentLogger);
    expect(quiet.calls()).toBe(2);

    const stuck = readings({ pending: 10, ackedThrough: 0, streamLastSequence: 10 });
    const controller = new AbortController();
    const waiting = waitForWatchFeed(stuck.progress, controller.signal, silentLogger);
    setTimeout(() => controller.abort(), 300);
    await waiting;
    expect(stuck.calls()).toBeGreaterThanOrEqual(2);
  });
});
