import { describe, expect, it } from "vitest";
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key.ts";

describe("api keys", () => {
  it("are 40 alphanumeric characters, different every time", () => {
    const keys = new Set(Array.from({ length: 1_000 }, generateApiKey));
    expect(keys.size).toBe(1_000);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  it("use every letter of the alphabet (no bias towards a subset)", () => {
    const seen = new Set(Array.from({ length: 200 }, generateApiKey).join(""));
    expect(seen.size).toBe(62);
  });

  it("match only their own stored hash", () => {
    const key = generateApiKey();
    expect(apiKeyMatches(key, hashApiKey(key))).toBe(true);
    expect(apiKeyMatches(generateApiKey(), hashApiKey(key))).toBe(false);
    expect(apiKeyMatches(key, undefined)).toBe(false);
    expect(apiKeyMatches("0".repeat(40), undefined)).toBe(false);
  });

  it("are recognised by shape and prefix", () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(key.slice(1))).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(1)}-`)).toBe(false);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 8));
  });
});
