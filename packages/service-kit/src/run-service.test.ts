import { describe, expect, it } from "vitest";
import { missingInternalTokenRefusal } from "./run-service.ts";

describe("a service without INTERNAL_TOKEN", () => {
  it("is refused unless ALLOW_NO_INTERNAL_TOKEN says so", () => {
    expect(missingInternalTokenRefusal({ ALLOW_NO_INTERNAL_TOKEN: false })).toMatch(/INTERNAL_TOKEN is not set/);
    expect(missingInternalTokenRefusal({ ALLOW_NO_INTERNAL_TOKEN: true })).toBeUndefined();
    expect(missingInternalTokenRefusal({ ALLOW_NO_INTERNAL_TOKEN: false, INTERNAL_TOKEN: "t".repeat(32) })).toBeUndefined();
  });

  it("is not judged by a schema without the setting (a tool's own config)", () => {
    expect(missingInternalTokenRefusal({})).toBeUndefined();
  });
});
