/** The Tron account reads (`/api/v1/trx/account/{address}*`) in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON, trxNodeFailure } from "./trx-path-common.ts";

const balancesSchema = z
  .object({
    address: z.string().openapi({ description: "Base58." }),
    balance: z.number().int().openapi({ description: "SUN (int64, exact)." }),
    trc10: z
      .union([z.record(z.string(), z.object({ name: z.string(), id: z.string(), balance: z.number().int() })), z.array(z.unknown()).max(0)])
      .openapi({
        description:
          "Keyed by symbol (`<symbol>#<id>` for a later token sharing a symbol, the id when it has none), ascending ids; `[]` when none held.",
      }),
    trc20: z
      .record(z.string(), z.string())
      .openapi({ description: 'Whitelisted TRC-20 raw balances keyed by contract (Base58), decimal strings; "0" when not held.' }),
    trc20_tokens: z.record(
      z.string(),
      z.object({ contract: z.string(), name: z.string(), decimals: z.number().int(), balance_raw: z.string(), balance: z.string() }),
    ),
  })
  .openapi("TrxBalances");

const addressParam = z.object({ address: z.string().openapi({ example: "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV" }) });

export function registerTrxAccountPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "get",
    path: "/api/v1/trx/account/{address}",
    summary: "Raw account record (java-tron getaccount), [] for an address never seen",
    request: { params: addressParam },
    responses: {
      200: json(
        "The node's record, hex addresses, int64 exact, zero fields omitted; or [].",
        z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(0)]),
      ),
      500: trxNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  for (const suffix of ["balance", "assets"]) {
    registry.registerPath({
      ...TRX_PATH_COMMON,
      method: "get",
      path: `/api/v1/trx/account/{address}/${suffix}`,
      summary: "TRX, TRC-10 and whitelisted TRC-20 balances (balance and assets are the same handler)",
      request: { params: addressParam },
      responses: { 200: json("Balances.", balancesSchema), 500: trxNodeFailure, ...GATEWAY_RESPONSES },
    });
  }
}
