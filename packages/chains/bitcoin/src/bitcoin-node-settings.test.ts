import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bitcoinNodeAuth, bitcoinNodeAuthSettings } from "./bitcoin-node-settings.ts";

const read = (env: Record<string, string>) => bitcoinNodeAuth(z.object(bitcoinNodeAuthSettings()).parse(env));

describe("Bitcoin node credentials", () => {
  it("prefers the cookie file, then user and password, else none", () => {
    expect(read({ BTC_RPC_COOKIE_FILE: "/data/.cookie", BTC_RPC_USER: "u", BTC_RPC_PASSWORD: "p" })).toEqual({
      cookieFile: "/data/.cookie",
    });
    expect(read({ BTC_RPC_USER: "u", BTC_RPC_PASSWORD: "p" })).toEqual({ user: "u", password: "p" });
    expect(read({ BTC_RPC_USER: "u" })).toEqual({ user: "u", password: "" });
    expect(read({})).toBe("none");
  });
});
