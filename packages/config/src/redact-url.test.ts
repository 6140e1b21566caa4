import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.ts";

describe("redactUrl (one rule for every URL a log, error or upstream list shows)", () => {
  it("masks every query value, whatever the provider calls its key parameter", () => {
    // The config line used to keep this one: only a fixed list of parameter names was masked.
    expect(redactUrl("https://rpc.example-provider.io/eth?x-api-key=s3cret-value&network=mainnet")).toBe(
      "https://rpc.example-provider.io/eth?x-api-key=[redacted]&network=[redacted]",
    );
  });

  it("masks the password and key-like path segments, and keeps the rest as written", () => {
    expect(redactUrl("wss://user:pass@mainnet.example.io/ws/v3/0123456789abcdef0123456789abcdef")).toBe(
      "wss://user:redacted@mainnet.example.io/ws/v3/[redacted]",
    );
    expect(redactUrl("http://127.0.0.1:8545/")).toBe("http://127.0.0.1:8545/");
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
