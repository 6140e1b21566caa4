import { describe, expect, it } from "vitest";
import { displayUrl } from "./block-announcement-channel.ts";

describe("displayUrl (channel names in logs, metrics and /readyz)", () => {
  it("masks a provider key in the path, user info and secret query parameters", () => {
    const shown = displayUrl("wss://user:pass@mainnet.example-provider.io/ws/v3/0123456789abcdef0123456789abcdef?apikey=s3cret");
    expect(shown).not.toContain("0123456789abcdef0123456789abcdef");
    expect(shown).not.toContain("pass");
    expect(shown).not.toContain("s3cret");
    expect(shown).toContain("mainnet.example-provider.io/ws/v3/");
  });

  it("leaves a plain local endpoint as written", () => {
    expect(displayUrl("tcp://127.0.0.1:28332")).toBe("tcp://127.0.0.1:28332");
  });
});
