import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tronNodeAuth, tronNodeAuthSettings } from "./tron-node-settings.ts";

const schema = z.object(tronNodeAuthSettings());

describe("Tron node API key", () => {
  it("travels in TRON-PRO-API-KEY unless TRON_NODE_API_KEY_HEADER names another header", () => {
    expect(tronNodeAuth(schema.parse({ TRON_NODE_API_KEY: "k" }))).toEqual({ apiKeyHeader: "TRON-PRO-API-KEY", apiKey: "k" });
    expect(tronNodeAuth(schema.parse({ TRON_NODE_API_KEY: "k", TRON_NODE_API_KEY_HEADER: "x-api-key" }))).toEqual({
      apiKeyHeader: "x-api-key",
      apiKey: "k",
    });
    expect(tronNodeAuth(schema.parse({}))).toBe("none");
  });

  it("refuses an empty key rather than sending none", () => {
    expect(schema.safeParse({ TRON_NODE_API_KEY: "" }).success).toBe(false);
  });
});
