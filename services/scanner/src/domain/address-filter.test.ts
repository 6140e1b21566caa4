import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { seededRandom } from "@chaingate/testing";
import { AddressFilter } from "./address-filter.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/** Keys as the watch index makes them, in each chain's form: random-looking, numbered. */
const KEY_FORMS = {
  bech32: (i: number) =>
    `bc1q${[...digest(`btc${i}`).subarray(0, 19), ...digest(`btc+${i}`).subarray(0, 19)].map((b) => BECH32[b % 32]).join("")}`,
  base58: (i: number) =>
    `1${digest(`b58${i}`)
      .toString("base64")
      .replace(/[+/=0OIl]/g, "")
      .slice(0, 33)}`,
  evm: (i: number) => `0x${digest(`eth${i}`).toString("hex").slice(0, 40)}`,
  tron: (i: number) => digest(`trx${i}`).toString("hex").slice(0, 40),
};

/** The share of `keys` the filter lets through. */
function passRate(filter: AddressFilter, keys: readonly string[]): number {
  let passed = 0;
  for (const key of keys) if (filter.mightContain(key)) passed++;
  return passed / keys.length;
}

const numbered = (key: (i: number) => string, from: number, count: number) => Array.from({ length: count }, (_, i) => key(from + i));

describe("address filter", () => {
  test("every key added is let through, in every chain's form and however short", () => {
    for (const key of Object.values(KEY_FORMS)) {
      const keys = numbered(key, 0, 5_000);
      const filter = new AddressFilter(keys.length);
      for (const k of keys) filter.add(k);
      expect(passRate(filter, keys)).toBe(1);
    }
    const short = new AddressFilter(10);
    for (const key of ["", "a", "bc1qa", "bc1qb", "0xabc"]) short.add(key);
    for (const key of ["", "a", "bc1qa", "bc1qb", "0xabc"]) expect(short.mightContain(key)).toBe(true);
  });

  test("answers a whole block's keys at once exactly as key by key (mightContainEach), over several sizes of batch", () => {
    const filter = new AddressFilter(20_000);
    for (const k of numbered(KEY_FORMS.tron, 0, 10_000)) filter.add(k);
    for (const count of [0, 1, 1_000, 5_000, 300]) {
      // Half added, half strangers, interleaved.
      const keys = Array.from({ length: count }, (_, i) => KEY_FORMS.tron(i % 2 === 0 ? i : 1_000_000 + i));
      const out = new Uint8Array(count);
      filter.mightContainEach(keys, out);
      expect([...out]).toEqual(keys.map((key) => (filter.mightContain(key) ? 1 : 0)));
      expect(out.filter((_, i) => i % 2 === 0).every((bit) => bit === 1)).toBe(true);
    }
  });

  // The design figures (address-filter.ts): 0.55 % full at 12 bits per key, 0.1 % at the 18 bits
  // of a fresh build, plus a little from 32-bit hash collisions; 100,000 strangers per form.
  test("false positives near the design rate, full and freshly built", () => {
    for (const [form, key] of Object.entries(KEY_FORMS)) {
      const keys = numbered(key, 0, 50_000);
      const strangers = numbered(key, keys.length, 100_000);
      const full = new AddressFilter(keys.length);
      for (const k of keys) full.add(k);
      const fullRate = passRate(full, strangers);
      const freshRate = passRate(AddressFilter.build(keys, keys.length), strangers);
      expect(fullRate, form).toBeGreaterThan(0.004);
      expect(fullRate, form).toBeLessThan(0.008);
      expect(freshRate, form).toBeLessThan(0.0015);
    }
  });

  test("asks for a rebuild when full, and when far larger than its keys need", () => {
    const filter = AddressFilter.build([], 0);
    expect(filter.capacity).toBe(1_024);
    for (let i = 0; i < 1_024; i++) filter.add(KEY_FORMS.evm(i));
    expect(filter.needsRebuild(1_024)).toBe(false);
    filter.add(KEY_FORMS.evm(1_024));
    expect(filter.needsRebuild(1_025)).toBe(true);

    const grown = AddressFilter.build(numbered(KEY_FORMS.evm, 0, 10_000), 10_000);
    expect(grown.capacity).toBe(15_000);
    expect(grown.byteLength).toBe(704 * 32); // 15,000 keys at 12 bits, in whole 32-byte blocks
    expect(grown.needsRebuild(10_000)).toBe(false);
    expect(grown.needsRebuild(1_875)).toBe(false);
    expect(grown.needsRebuild(1_874)).toBe(true);
    // The smallest filter is never too large.
    expect(AddressFilter.build([], 0).needsRebuild(0)).toBe(false);
  });

  // The watch index's use of it, against a Set: keys come and go (a key may come back after it
  // was removed), the filter is rebuilt from the live keys whenever it asks, and no live key is
  // ever rejected in between.
  test("no false negatives across random adds, removes and rebuilds (against a Set)", () => {
    const random = seededRandom(20_251_126);
    const live = new Set<string>();
    let filter = AddressFilter.build([], 0);
    let rebuilds = 0;
    let shrinks = 0;
    const rebuildIfDue = () => {
      if (!filter.needsRebuild(live.size)) return;
      const before = filter.byteLength;
      filter = AddressFilter.build(live, live.size);
      rebuilds++;
      if (filter.byteLength < before) shrinks++;
    };
    for (let step = 0; step < 60_000; step++) {
      // Phases of growth and of shrinking, so the filter grows and shrinks several times.
      const growing = Math.floor(step / 10_000) % 2 === 0;
      const key = KEY_FORMS[random.pick(["bech32", "evm", "tron"] as const)](random.between(0, 12_000));
      if (random.next() < (growing ? 0.8 : 0.1)) {
        if (!live.has(key)) {
          live.add(key);
          filter.add(key);
        }
      } else {
        // A key not watched: remove the longest-watched one instead, so removals keep pace.
        const removed = live.has(key) ? key : live.values().next().value;
        if (removed !== undefined) live.delete(removed);
      }
      rebuildIfDue();
      expect(filter.mightContain(key) || !live.has(key)).toBe(true);
      if (step % 2_000 === 0) for (const watched of live) expect(filter.mightContain(watched)).toBe(true);
    }
    expect(rebuilds).toBeGreaterThan(4);
    expect(shrinks).toBeGreaterThan(0);
  });
});
