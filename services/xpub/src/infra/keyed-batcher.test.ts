import { describe, expect, it } from "vitest";
import { createKeyedBatcher } from "./keyed-batcher.ts";

describe("createKeyedBatcher", () => {
  it("runs one batch per key at a time and gives the calls that queued meanwhile to the next batch", async () => {
    const batcher = createKeyedBatcher<number>(3);
    const sizes: number[] = [];
    let next = 0;
    const run = async (size: number) => {
      sizes.push(size);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return Array.from({ length: size }, () => next++);
    };
    const results = await Promise.all(Array.from({ length: 6 }, () => batcher.submit("key", run)));
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    // The first call runs alone; the five that queued behind it run as batches of at most 3.
    expect(sizes).toEqual([1, 3, 2]);
  });

  it("rejects every call of a failed batch and keeps serving later calls", async () => {
    const batcher = createKeyedBatcher<string>(10);
    const failing = batcher.submit("key", async () => {
      throw new Error("commit failed");
    });
    await expect(failing).rejects.toThrow("commit failed");
    await expect(batcher.submit("key", async (size) => Array(size).fill("ok"))).resolves.toBe("ok");
  });

  it("does not make different keys wait for each other", async () => {
    const batcher = createKeyedBatcher<string>(10);
    let release!: () => void;
    const slow = batcher.submit("a", () => new Promise((resolve) => (release = () => resolve(["a"]))));
    await expect(batcher.submit("b", async () => ["b"])).resolves.toBe("b");
    release();
    await expect(slow).resolves.toBe("a");
  });
});
