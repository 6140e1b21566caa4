import { describe, expect, it } from "vitest";
import { createBatchWriter } from "./batch-writer.ts";

describe("createBatchWriter", () => {
  it("writes what waits together, at most maxBatch at a time, and resolves each add after its write", async () => {
    const writes: number[][] = [];
    const add = createBatchWriter<number>(async (items) => {
      writes.push(items);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }, 3);
    const first = add(0);
    // Added during the first write: they wait for the next ones.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const rest = [1, 2, 3, 4].map((n) => add(n));
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[0], [1, 2, 3], [4]]);
    await add(5);
    expect(writes.at(-1)).toEqual([5]);
  });

  it("rejects the adds of a failed write only; the next write goes on", async () => {
    let calls = 0;
    const add = createBatchWriter<string>(async () => {
      calls++;
      if (calls === 1) throw new Error("database down");
    }, 10);
    const failed = [add("a"), add("b")];
    await expect(failed[0]).rejects.toThrow("database down");
    await expect(failed[1]).rejects.toThrow("database down");
    await expect(add("c")).resolves.toBeUndefined();
  });
});
