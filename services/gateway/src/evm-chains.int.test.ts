/**
 * Configured EVM chains at the gateway (issue 31): `/api/v1/{name}` is proxied to the eth-proxy as
 * `/api/v1/eth` is, and `/api/v1/{name}/xpub` to the xpub service (route-table.test.ts says which
 * owns what; here one stand-in answers both), each counted in its own usage group, and
 * `GET /api/v1/chains` lists every chain the deployment serves, authenticated like every path.
 */
import type { RequestListener } from "node:http";
import { chainListSchema } from "@chaingate/contracts";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";

const reached: string[] = [];
const ethProxy: RequestListener = (req, res) => {
  reached.push(req.url ?? "");
  res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
};

gatewayTest.scoped({
  standInSettings: { urlSettings: ["ETH_PROXY_URL", "XPUB_URL"], listener: ethProxy },
  gatewaySettings: { EVM_CHAINS: JSON.stringify([{ name: "polygon" }, { name: "devnet", chain_id: 31338, symbol: "DEV" }]) },
});
const it = gatewayTest;

describe("configured EVM chains at the gateway", () => {
  it("proxies each chain's prefix to the eth-proxy, and only the configured ones", async ({ standInGateway: gateway, standInKey: key }) => {
    const get = (path: string) => fetch(`${gateway.url}${path}`, { headers: { "x-api-key": key } });
    expect((await get("/api/v1/polygon/health")).status).toBe(200);
    expect((await get("/api/v1/devnet/account/0x0000000000000000000000000000000000000001/nonce?block=latest")).status).toBe(200);
    expect((await get("/api/v1/polygon/xpub/3/addresses?page=2")).status).toBe(200);
    expect((await get("/api/v1/bsc/health")).status).toBe(404);
    expect((await get("/api/v1/bsc/xpub")).status).toBe(404);
    expect(reached).toEqual([
      "/api/v1/polygon/health",
      "/api/v1/devnet/account/0x0000000000000000000000000000000000000001/nonce?block=latest",
      "/api/v1/polygon/xpub/3/addresses?page=2",
    ]);
  });

  it("lists every chain at GET /api/v1/chains in the published shape; without a key it is a 401", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const answer = await fetch(`${gateway.url}/api/v1/chains`, { headers: { "x-api-key": key } });
    expect(answer.status).toBe(200);
    const { data } = chainListSchema.parse(await answer.json());
    expect(data.map((chain) => [chain.coin, chain.prefix, chain.native_currency.symbol, chain.chain_id])).toEqual([
      ["BTC", "btc", "BTC", null],
      ["ETH", "eth", "ETH", null],
      ["TRX", "trx", "TRX", null],
      ["POLYGON", "polygon", "POL", 137],
      ["DEVNET", "devnet", "DEV", 31338],
    ]);
    expect(data[3]).toMatchObject({
      kind: "evm",
      confirmations: { default: 1, max: 256 },
      token_reporting: "optional",
      pending_events: true,
    });
    expect(data[2]).toMatchObject({ kind: "tron", token_reporting: "always", pending_events: false });
    expect((await fetch(`${gateway.url}/api/v1/chains`)).status).toBe(401);
  });
});
