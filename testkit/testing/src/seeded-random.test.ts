import { describe, expect, it } from "vitest";
import { seededRandom } from "./seeded-random.ts";

describe("seededRandom", () => {
  it("repeats its sequence for a seed and differs for another", () => {
    const sequence = (seed: number) => Array.from({ length: 5 }, seededRandom(seed).next);
    expect(sequence(42)).toEqual(sequence(42));
    expect(sequence(42)).not.toEqual(sequence(43));
  });

  it("stays in its ranges and reaches both ends", () => {
    const random = seededRandom(7);
    const draws = Array.from({ length: 2_000 }, () => random.between(3, 6));
    expect(new Set(draws)).toEqual(new Set([3, 4, 5, 6]));
    const floats = Array.from({ length: 2_000 }, random.next);
    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...floats)).toBeLessThan(1);
    expect(new Set(Array.from({ length: 200 }, () => random.pick(["a", "b"])))).toEqual(new Set(["a", "b"]));
  });
});
