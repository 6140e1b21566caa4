import { describe, expect, test } from "vitest";
import { WatchIndex, type WatchedWebhook } from "./watch-index.ts";

const webhook = (overrides: Partial<WatchedWebhook>): WatchedWebhook => ({ webhookId: 1, coin: "BTC", addresses: [], isActive: true, deleted: false, version: 1, ...overrides });

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
