/**
 * The four deprecated key-taking Tron endpoints (`/api/v1/trx/account/create`, `private-key`,
 * `send`, `send/usdt`) in the OpenAPI document, with their sunset.
 */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON, trxErrorSchema } from "./trx-path-common.ts";

const DEPRECATED_NOTE =
  "Deprecated: answers carry `Deprecation`, `Sunset: Tue, 01 Dec 2026 00:00:00 GMT` and a `Link` to the replacement; from the sunset on, 410 `{error}` naming it. Replacement: POST /api/v1/trx/transactions/create, sign locally, POST /api/v1/trx/transactions/broadcast.";
const gone = json("Past the sunset: the endpoint is shut down; `error` names the replacement.", z.object({ error: z.string() }));

export function registerTrxDeprecatedPaths(registry: OpenAPIRegistry): void {
  const deprecated = (path: string, summary: string, body: z.ZodType, ok: z.ZodType) =>
    registry.registerPath({
      ...TRX_PATH_COMMON,
      method: "post",
      path,
      summary,
      description: DEPRECATED_NOTE,
      deprecated: true,
      request: { body: { content: { "application/json": { schema: body } } } },
      responses: {
        200: json("Done.", ok),
        400: json("A field is missing or invalid, or the node refused (`Broadcast failed: …`).", trxErrorSchema),
        410: gone,
        500: json("The node failed.", trxErrorSchema),
        ...GATEWAY_RESPONSES,
      },
    });
  const keyAnswer = z.object({ address: z.string(), hex_address: z.string(), private_key: z.string() });
  deprecated("/api/v1/trx/account/create", "Create an address (returns a private key; deprecated)", z.object({}), keyAnswer);
  deprecated(
    "/api/v1/trx/account/private-key",
    "Derive a private key from a BIP-39 mnemonic at m/44'/195'/0'/0/{index} (deprecated)",
    z.object({ mnemonic: z.string(), index: z.number().int().min(0).optional(), passphrase: z.string().optional() }),
    keyAnswer.extend({ path: z.string() }),
  );
  const sendAnswer = z.object({
    success: z.boolean(),
    tx_id: z.string(),
    from_address: z.string(),
    to_address: z.string(),
    amount: z.number(),
    amount_trx: z.number(),
  });
  deprecated(
    "/api/v1/trx/account/send",
    "Send TRX with a private key (deprecated)",
    z.object({
      private_key: z.string(),
      to_address: z.string(),
      amount: z.union([z.number(), z.string()]).openapi({ description: "Whole TRX; 0.1 TRX is 100000 SUN." }),
    }),
    sendAnswer,
  );
  deprecated(
    "/api/v1/trx/account/send/usdt",
    "Send USDT with a private key (deprecated)",
    z.object({
      private_key: z.string(),
      to_address: z.string(),
      amount: z.number(),
      fee_limit: z.number().optional().openapi({ description: "TRX, default 15, times 1 000 000 upstream." }),
    }),
    sendAnswer,
  );
}
