/** The Ethereum fee endpoints (gas price, fee history) in the OpenAPI document. */
import { json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ethBadRequest, ethNodeObject, registerEthGetPath } from "./eth-path-common.ts";

const feeHistorySchema = ethNodeObject(
  "EthFeeHistory",
  "The node's eth_feeHistory object (oldestBlock, baseFeePerGas, gasUsedRatio, reward), unchanged.",
);

export function registerEthFeePaths(registry: OpenAPIRegistry): void {
  registerEthGetPath(
    registry,
    "/api/v1/eth/gas-price",
    "Legacy gas price in wei (eth_gasPrice)",
    {},
    { 200: json("Wei per gas, hex QUANTITY.", z.object({ gasPrice: z.string() })) },
  );
  registerEthGetPath(
    registry,
    "/api/v1/eth/fee-history",
    "Base fees and priority-fee percentiles of recent blocks (eth_feeHistory)",
    {
      query: z.object({
        blockCount: z.string().optional().openapi({ description: "1–1024, decimal or hex; default 10." }),
        newestBlock: z.string().optional().openapi({ description: "Hex QUANTITY or tag; default latest." }),
        rewardPercentiles: z.string().optional().openapi({ description: "Comma-separated increasing percentiles 0–100, e.g. `25,50,75`." }),
      }),
    },
    { 200: json("The node's fee history.", feeHistorySchema), 400: ethBadRequest("A bad parameter.") },
  );
}
