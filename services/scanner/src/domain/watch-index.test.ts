import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { seededRandom } from "@chaingate/testing";
import type { Coin } from "@chaingate/contracts";
import { WatchIndex, type WatchedWebhook, type WatchedWebhookMeta } from "./watch-index.ts";

const webhook = (overrides: Partial<WatchedWebhook>): WatchedWebhook => ({
  webhookId: 1,
  coin: "BTC",
  addresses: [],
  isActive: true,
  deleted: false,
  version: 1,
  ...overrides,
});

describe("watch index", () => {
  test("finds every webhook watching an address, with its settings", () => {
    const index = new WatchIndex();
    index.apply(webhook({ webhookId: 1, addresses: ["bc1qa", "bc1qb"], confirmations: 3 }));
    index.apply(webhook({ webhookId: 2, addresses: ["bc1qb"] }));
    expect(index.watchers("BTC", "bc1qa")).toBe(1);
    expect(index.watchers("BTC", "bc1qb")).toEqual([1, 2]);
    expect(index.watchers("BTC", "bc1qc")).toBeUndefined();
    expect(index.settings(1)).toMatchObject({ confirmations: 3, includeTokens: false });
    expect(index.settings(2)).toMatchObject({ confirmations: 1 });
  });

  test("a newer version replaces the address list; an older one arriving late is ignored", () => {
    const index = new WatchIndex();
    index.apply(webhook({ addresses: ["bc1qa"], version: 1 }));
    index.apply(webhook({ addresses: ["bc1qz"], version: 3 }));
    expect(index.apply(webhook({ addresses: ["bc1qa"], version: 2 }))).toBe(false);
    expect(index.watchers("BTC", "bc1qa")).toBeUndefined();
    expect(index.watchers("BTC", "bc1qz")).toBe(1);
  });

  test("inactive and deleted webhooks watch nothing; a deletion is not undone by an older event", () => {
    const index = new WatchIndex();
    index.apply(webhook({ webhookId: 1, addresses: ["bc1qa"], version: 1 }));
    index.apply(webhook({ webhookId: 2, addresses: ["bc1qa"], version: 1 }));
    index.apply(webhook({ webhookId: 1, addresses: ["bc1qa"], isActive: false, version: 2 }));
    expect(index.watchers("BTC", "bc1qa")).toBe(2);
    index.apply(webhook({ webhookId: 2, addresses: ["bc1qa"], deleted: true, version: 5 }));
    index.apply(webhook({ webhookId: 2, addresses: ["bc1qa"], version: 4 }));
    expect(index.watchers("BTC", "bc1qa")).toBeUndefined();
    expect(index.watchesAny("BTC")).toBe(false);
  });

  test("ETH addresses match in any case; Tron addresses by their hex body; the listed form is reported", () => {
    const index = new WatchIndex();
    index.apply(webhook({ webhookId: 7, coin: "ETH", addresses: ["0xAbCdEf0000000000000000000000000000000001"] }));
    expect(index.watchers("ETH", "0xabcdef0000000000000000000000000000000001")).toBe(7);
    index.apply(webhook({ webhookId: 8, coin: "TRX", addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"] }));
    expect(index.watchers("TRX", "a614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBe(8);
    expect(index.listedAddress(8, "a614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
    index.apply(webhook({ webhookId: 9, coin: "BTC", addresses: ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"] }));
    expect(index.watchers("BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBe(9);
    expect(index.listedAddress(9, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBe("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4");
  });

  test("confirmations are capped at the chain's documented maximum", () => {
    const index = new WatchIndex();
    index.apply(webhook({ coin: "TRX", addresses: [], confirmations: 10_000 }));
    expect(index.settings(1)?.confirmations).toBe(30);
  });
});

describe("watch index, bucket by bucket", () => {
  const meta = (overrides: Partial<WatchedWebhookMeta> = {}): WatchedWebhookMeta => ({
    webhookId: 1,
    coin: "BTC",
    isActive: true,
    deleted: false,
    version: 1,
    bucketBits: 2,
    ...overrides,
  });
  const watched = (index: WatchIndex, ...addresses: string[]) =>
    addresses.filter((address) => index.watchers("BTC", address) !== undefined);

  test("replacing a bucket removes exactly its old addresses and keeps the other buckets", () => {
    const index = new WatchIndex();
    expect(index.applyMeta(meta())).toBe("reload");
    index.replaceBuckets(
      1,
      2,
      [
        { bucket: 0, addresses: ["a0", "b0"] },
        { bucket: 1, addresses: ["a1"] },
        { bucket: 3, addresses: ["a3", "b3"] },
      ],
      { all: true },
    );
    expect(index.watchedCount(1)).toBe(5);
    index.replaceBuckets(1, 2, [
      { bucket: 1, addresses: ["c1", "d1"] },
      { bucket: 2, addresses: ["a2"] },
    ]);
    expect(watched(index, "a0", "b0", "a1", "c1", "d1", "a2", "a3", "b3")).toEqual(["a0", "b0", "c1", "d1", "a2", "a3", "b3"]);
    index.replaceBuckets(1, 2, [
      { bucket: 0, addresses: [] },
      { bucket: 3, addresses: ["b3"] },
    ]);
    expect(watched(index, "a0", "b0", "c1", "d1", "a2", "a3", "b3")).toEqual(["c1", "d1", "a2", "b3"]);
    expect(index.watchedCount(1)).toBe(4);
    expect(index.size("BTC")).toBe(4);
  });

  test("an address two webhooks watch stays watched by the other when one replaces its bucket", () => {
    const index = new WatchIndex();
    index.applyMeta(meta({ webhookId: 1 }));
    index.applyMeta(meta({ webhookId: 2 }));
    index.replaceBuckets(1, 2, [{ bucket: 1, addresses: ["shared", "mine"] }], { all: true });
    index.replaceBuckets(2, 2, [{ bucket: 1, addresses: ["shared"] }], { all: true });
    expect(index.watchers("BTC", "shared")).toEqual([1, 2]);
    index.replaceBuckets(1, 2, [{ bucket: 1, addresses: ["mine"] }]);
    expect(index.watchers("BTC", "shared")).toBe(2);
    expect(index.watchers("BTC", "mine")).toBe(1);
  });

  test("buckets of another level are ignored; a meta at a new level asks for a reload that replaces everything", () => {
    const index = new WatchIndex();
    index.applyMeta(meta({ bucketBits: 0 }));
    index.replaceBuckets(1, 0, [{ bucket: 0, addresses: ["old", "kept"] }], { all: true });
    expect(index.replaceBuckets(1, 3, [{ bucket: 5, addresses: ["early"] }])).toBe(false);
    expect(watched(index, "old", "kept", "early")).toEqual(["old", "kept"]);
    expect(index.metaEffect(meta({ bucketBits: 3, version: 2 }))).toBe("reload");
    expect(index.metaEffect(meta({ bucketBits: 0, version: 2, confirmations: 5 }))).toBe("settings");
    index.applyMeta(meta({ bucketBits: 3, version: 2 }));
    index.replaceBuckets(
      1,
      3,
      [
        { bucket: 2, addresses: ["kept"] },
        { bucket: 5, addresses: ["early"] },
      ],
      { all: true },
    );
    expect(watched(index, "old", "kept", "early")).toEqual(["kept", "early"]);
  });

  test("settings change without touching addresses; inactive and deleted webhooks watch nothing; re-activation reloads", () => {
    const index = new WatchIndex();
    index.applyMeta(meta());
    index.replaceBuckets(1, 2, [{ bucket: 0, addresses: ["a"] }], { all: true });
    expect(index.applyMeta(meta({ version: 2, confirmations: 6, includeTokens: true }))).toBe("settings");
    expect(index.settings(1)).toMatchObject({ confirmations: 6, includeTokens: true });
    expect(watched(index, "a")).toEqual(["a"]);
    expect(index.applyMeta(meta({ version: 3, isActive: false }))).toBe("removed");
    expect(watched(index, "a")).toEqual([]);
    expect(index.replaceBuckets(1, 2, [{ bucket: 0, addresses: ["a"] }])).toBe(false);
    expect(index.applyMeta(meta({ version: 2 }))).toBe("ignored");
    expect(index.applyMeta(meta({ version: 4 }))).toBe("reload");
    expect(index.applyMeta(meta({ version: 5, deleted: true }))).toBe("removed");
    expect(index.metaEffect(meta({ version: 4 }))).toBe("ignored");
  });
});

// The address filter in front of each chain's map must never reject a watched key: webhooks
// replace buckets, stop and start again, share addresses, and the filter grows and shrinks (is
// rebuilt) on the way. Every lookup is compared with a model of what is watched.
describe("watch index, its address filter under random changes", () => {
  const POOL = 3_000;
  const BUCKET_BITS = 3;
  const WEBHOOKS = 8;
  const digest = (text: string) => createHash("sha256").update(text).digest("hex");
  const pool: Record<"BTC" | "ETH", string[]> = {
    BTC: Array.from({ length: POOL }, (_, i) => `bc1q${digest(`btc${i}`).slice(0, 38)}`),
    ETH: Array.from({ length: POOL }, (_, i) => `0x${digest(`eth${i}`).slice(0, 40)}`),
  };

  for (const addressFilter of [true, false]) {
    test(`every lookup answers as the model does (address filter ${addressFilter ? "on" : "off"})`, () => {
      const random = seededRandom(addressFilter ? 26_11 : 11_26);
      const index = new WatchIndex({ addressFilter });
      /** Active webhooks: coin and each bucket's addresses. */
      const model = new Map<number, { coin: "BTC" | "ETH"; buckets: Map<number, string[]> }>();
      const versions = new Map<number, number>();
      const filterSizes: Record<"BTC" | "ETH", number[]> = { BTC: [], ETH: [] };
      /** A bucket's list: pool addresses of that bucket (an address belongs to one bucket, as in the registry). */
      const randomBucket = (coin: "BTC" | "ETH", bucket: number, filling: boolean) => {
        const count = filling ? random.between(0, 300) : random.between(0, 3) === 0 ? random.between(0, 20) : 0;
        const buckets = 2 ** BUCKET_BITS;
        return Array.from({ length: count }, () => pool[coin][random.between(0, POOL / buckets - 1) * buckets + bucket]!);
      };
      const applyMeta = (webhookId: number, coin: Coin, isActive: boolean) => {
        const version = (versions.get(webhookId) ?? 0) + 1;
        versions.set(webhookId, version);
        return index.applyMeta({ webhookId, coin, isActive, deleted: false, version, bucketBits: BUCKET_BITS });
      };

      for (let step = 0; step < 400; step++) {
        // Phases that fill buckets and phases that empty them, so the filters grow and shrink.
        const filling = Math.floor(step / 100) % 2 === 0;
        const webhookId = random.between(1, WEBHOOKS);
        const current = model.get(webhookId);
        const action = random.next();
        if (current && action < 0.75) {
          const buckets = Array.from({ length: random.between(1, 3) }, () => random.between(0, 2 ** BUCKET_BITS - 1)).map((bucket) => ({
            bucket,
            addresses: randomBucket(current.coin, bucket, filling),
          }));
          index.replaceBuckets(webhookId, BUCKET_BITS, buckets);
          for (const { bucket, addresses } of buckets) current.buckets.set(bucket, addresses);
        } else if (current && action < 0.85) {
          expect(applyMeta(webhookId, current.coin, false)).toBe("removed");
          model.delete(webhookId);
        } else {
          // (Re)started on a random chain: loaded whole, as the projection refresh does.
          const coin = random.pick(["BTC", "ETH"] as const);
          const buckets = Array.from({ length: 2 ** BUCKET_BITS }, (_, bucket) => ({
            bucket,
            addresses: randomBucket(coin, bucket, filling),
          }));
          applyMeta(webhookId, coin, true);
          index.replaceBuckets(webhookId, BUCKET_BITS, buckets, { all: true });
          model.set(webhookId, { coin, buckets: new Map(buckets.map(({ bucket, addresses }) => [bucket, addresses])) });
        }

        for (const coin of ["BTC", "ETH"] as const) {
          const expected = new Map<string, number[]>();
          for (const [id, webhook] of model)
            if (webhook.coin === coin)
              for (const addresses of webhook.buckets.values())
                for (const address of addresses) {
                  const ids = expected.get(address) ?? [];
                  if (!ids.includes(id)) expected.set(address, [...ids, id]);
                }
          const wrong: string[] = [];
          for (const key of pool[coin]) {
            const watchers = index.watchers(coin, key);
            const found = watchers === undefined ? [] : typeof watchers === "number" ? [watchers] : watchers;
            if (String([...found].sort()) !== String((expected.get(key) ?? []).sort())) wrong.push(`${coin} ${key}`);
          }
          expect(wrong, `step ${step}`).toEqual([]);
          expect(index.size(coin)).toBe(expected.size);
          filterSizes[coin].push(index.filterBytes(coin));
        }
      }
      for (const sizes of Object.values(filterSizes)) {
        if (!addressFilter) {
          expect(new Set(sizes)).toEqual(new Set([0]));
          continue;
        }
        // Rebuilt larger as addresses came, and smaller as they went.
        const largest = Math.max(...sizes);
        expect(largest).toBeGreaterThan(3 * sizes[0]!);
        expect(Math.min(...sizes.slice(sizes.indexOf(largest)))).toBeLessThan(largest / 3);
      }
    });
  }
});
