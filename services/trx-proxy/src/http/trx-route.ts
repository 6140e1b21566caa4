/** What every /api/v1/trx handler is given. */
import type { ProxyRoute } from "@chaingate/chain-proxy";
import type { Response } from "express";
import type { Trc10MetadataCache } from "../domain/trc10-metadata-cache.ts";
import type { Trc20Token } from "@chaingate/tron";

export interface TrxRoute extends ProxyRoute {
  whitelist: readonly Trc20Token[];
  trc10: Trc10MetadataCache;
}

/** Sends a body already written as JSON text (lossless numbers). */
export function sendJsonText(res: Response, status: number, text: string): void {
  res.status(status).type("application/json").send(text);
}
