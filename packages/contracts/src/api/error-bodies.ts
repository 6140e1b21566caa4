/** The spec's error shapes (there is no single envelope; each endpoint documents its own). */
import { z } from "../zod.ts";

export const messageErrorSchema = z.object({ message: z.string() }).openapi("MessageError", {
  description:
    "Gateway-level errors: authentication (401), routing (404), method (405), a request body not received in time (408), body too large for its route (413), service unavailable, or the gateway or the account holding too many request bodies at once (503, with `Retry-After`).",
});

export const nodeErrorSchema = z
  .object({
    error: z.string().openapi({ example: "Could not connect to BTC node." }),
    details: z
      .object({
        reason: z.enum(["not_found", "invalid_argument", "node_unreachable", "node_error", "not_configured"]),
        node_code: z.number().int().optional(),
        node_message: z.string().optional(),
      })
      .optional()
      .openapi({ description: "What really happened behind the generic message (a chaingate addition)." }),
  })
  .openapi("NodeError");

export const validationErrorSchema = z
  .object({
    message: z.string().openapi({ example: "The coin field is required. (and 1 more error)" }),
    errors: z.record(z.string(), z.array(z.string())),
  })
  .openapi("ValidationError");

/** The eth-proxy's 422: the spec's `{error}` naming the field, with every other 422's `message` and `errors`. */
export const ethValidationErrorSchema = z
  .object({
    error: z.string().openapi({ example: "The transaction field is required." }),
    message: z.string().openapi({ example: "The transaction field is required." }),
    errors: z.record(z.string(), z.array(z.string())).openapi({ example: { transaction: ["The transaction field is required."] } }),
  })
  .openapi("EthValidationError");

export const jsonRpcErrorSchema = z
  .object({
    error: z.object({ code: z.number().int(), message: z.string() }),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .openapi("JsonRpcError");
