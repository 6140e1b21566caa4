/** What every /api/v1/trx handler is given. */
import type { Logger } from "@chaingate/logger";
import type { NodeClient } from "@chaingate/node-client";
import type { Response } from "express";
import type { Trc10MetadataCache } from "../domain/trc10-metadata-cache.ts";
import type { Trc20Token } from "../domain/trc20-whitelist.ts";

export interface TrxRoute {
  node: NodeClient;
  logger: Logger;
  whitelist: readonly Trc20Token[];
  trc10: Trc10MetadataCache;
}

/** Sends a body already written as JSON text (lossless numbers). */
export function sendJsonText(res: Response, status: number, text: string): void {
  res.status(status).type("application/json").send(text);
}
