import { describe, expect, it, vi } from "vitest";
import { createMajorGcNudge } from "./gc-nudge.ts";

describe("createMajorGcNudge", () => {
  it("asks for one asynchronous major GC each time the bytes written pass the threshold", () => {
    const gc = vi.fn();
    const nudge = createMajorGcNudge(1_000, gc);
    for (let i = 0; i < 25; i++) nudge.count(100);
    expect(gc).toHaveBeenCalledTimes(2);
    expect(gc).toHaveBeenCalledWith({ type: "major", execution: "async" });
  });
  it("does nothing without --expose-gc or with a threshold of 0", () => {
    expect(() => createMajorGcNudge(1_000, undefined).count(10_000)).not.toThrow();
    const gc = vi.fn();
    createMajorGcNudge(0, gc).count(10_000);
    expect(gc).not.toHaveBeenCalled();
  });
});
