import { describe, expect, it } from "vitest";
import { createRouteResolver, resolveRoute } from "./route-table.ts";

describe("resolveRoute", () => {
  it.each([
    ["/api/v1/btc/xpub", "xpub"],
    ["/api/v1/btc/xpub/12/address", "xpub"],
    ["/api/v1/eth/xpub/3/addresses", "xpub"],
    ["/api/v1/btc/xpubs", "btc-proxy"],
    ["/api/v1/btc/health", "btc-proxy"],
    ["/api/v1/btc", "btc-proxy"],
    ["/api/v1/eth/health", "eth-proxy"],
    ["/api/v1/trx/block/latest/2", "trx-proxy"],
    ["/api/v1/webhooks", "delivery"],
    ["/api/v1/webhooks/5/secret", "delivery"],
  ])("%s → %s", (path, upstream) => {
    expect(resolveRoute(path)?.upstream).toBe(upstream);
  });

  it.each(["/", "/api/v1", "/api/v1/btcx/health", "/api/v1/webhooksx", "/api/v2/btc/health", "/docs"])("%s has no owner", (path) => {
    expect(resolveRoute(path)).toBeUndefined();
  });
});

describe("createRouteResolver with configured EVM chains", () => {
  const resolve = createRouteResolver(["polygon", "bsc"]);

  it("gives each chain's prefix to the eth-proxy, in a usage group of its name", () => {
    expect(resolve("/api/v1/polygon/health")).toMatchObject({ upstream: "eth-proxy", group: "polygon" });
    expect(resolve("/api/v1/bsc/jsonrpc")).toMatchObject({ upstream: "eth-proxy", group: "bsc" });
    expect(resolve("/api/v1/eth/xpub")).toMatchObject({ upstream: "xpub" });
  });

  it("gives each chain's /xpub to the xpub service, in a usage group of its own", () => {
    expect(resolve("/api/v1/polygon/xpub")).toMatchObject({ upstream: "xpub", group: "polygon-xpub" });
    expect(resolve("/api/v1/bsc/xpub/7/addresses")).toMatchObject({ upstream: "xpub", group: "bsc-xpub" });
    expect(resolve("/api/v1/polygon/xpubs")).toMatchObject({ upstream: "eth-proxy", group: "polygon" });
  });

  it.each(["/api/v1/polygonx/health", "/api/v1/base/health", "/api/v1/pol"])("%s has no owner", (path) => {
    expect(resolve(path)).toBeUndefined();
  });
});
