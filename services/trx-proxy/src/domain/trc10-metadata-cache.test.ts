import { describe, expect, it } from "vitest";
import { createTrc10MetadataCache, TRC10_METADATA_CONCURRENCY, type Trc10Metadata } from "./trc10-metadata-cache.ts";

function countingSource(known: (id: string) => boolean) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const source = async (id: string): Promise<Trc10Metadata | undefined> => {
    calls.push(id);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    return known(id) ? { id, name: `Token ${id}`, symbol: `T${id}`, precision: 6 } : undefined;
  };
  return { source, calls, maxInFlight: () => maxInFlight };
}

describe("TRC-10 metadata cache", () => {
  it("reads each id once, at most 16 at a time, then answers from memory", async () => {
    const { source, calls, maxInFlight } = countingSource(() => true);
    const cache = createTrc10MetadataCache(source, 1000);
    const ids = Array.from({ length: 300 }, (_unused, index) => String(1_000_001 + index));
    const first = await cache.getMany(ids);
    expect(first.size).toBe(300);
    expect(calls).toHaveLength(300);
    expect(maxInFlight()).toBe(TRC10_METADATA_CONCURRENCY);
    const second = await cache.getMany(ids);
    expect([...second.values()]).toEqual([...first.values()]);
    expect(calls).toHaveLength(300);
  });

  it("shares one node call between concurrent requests for the same id", async () => {
    const { source, calls } = countingSource(() => true);
    const cache = createTrc10MetadataCache(source, 10);
    await Promise.all([cache.get("1000001"), cache.get("1000001"), cache.getMany(["1000001"])]);
    expect(calls).toEqual(["1000001"]);
  });

  it("does not remember an id the node does not know (it may be issued later), and keeps at most maxEntries", async () => {
    const { source, calls } = countingSource((id) => id !== "9");
    const cache = createTrc10MetadataCache(source, 2);
    expect(await cache.get("9")).toBeUndefined();
    expect(await cache.get("9")).toBeUndefined();
    expect(calls).toEqual(["9", "9"]);
    await cache.getMany(["1", "2", "3"]);
    expect(cache.size).toBe(2);
  });
});
