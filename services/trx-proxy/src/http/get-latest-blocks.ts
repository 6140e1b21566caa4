/**
 * GET /api/v1/trx/block/latest/{num}: `{block: [...]}`, the newest `num` blocks newest first, each
 * whole with its transactions, as java-tron prints it (`visible: false`).
 *
 * java-tron's getblockbylatestnum answers oldest first and would have to be held whole to reverse
 * (about 0.5 MB a block on mainnet); instead the head's number is read (getblock without
 * transactions) and each block is streamed from getblockbynum, newest first, one at a time: the
 * proxy holds at most one block's chunks in flight. The blocks are read one by one, so a block
 * produced meanwhile is not included (the list is the chain as of the first call).
 */
import { once } from "node:events";
import { abortOnClose } from "@chaingate/http";
import type { RequestHandler, Response } from "express";
import type { Readable } from "node:stream";
import type { TrxRoute } from "./trx-route.ts";

export function getLatestBlocks({ node, logger }: TrxRoute, max: number): RequestHandler {
  return async (req, res) => {
    // The route's constraint made a non-integer a routing miss (404).
    const count = Number(req.params.num);
    if (!(count >= 1 && count <= max)) {
      res.status(400).json({ error: `The num must be an integer between 1 and ${max}.` });
      return;
    }
    const signal = abortOnClose(res);
    const head = await node.request<{ block_header?: { raw_data?: { number?: number } } }>("/wallet/getblock", {
      body: { detail: false },
      signal,
    });
    const headNumber = head.block_header?.raw_data?.number ?? 0;
    const numbers = Array.from({ length: Math.min(count, headNumber + 1) }, (_unused, index) => headNumber - index);

    // The first block is read before the headers go out, so a node failure still answers the spec's 500.
    let body = (await node.requestRaw("/wallet/getblockbynum", { body: { num: numbers[0] }, signal })).body;
    res.status(200).type("application/json");
    res.write('{"block":[');
    try {
      for (const [index, number] of numbers.entries()) {
        if (index > 0) {
          res.write(",");
          body = (await node.requestRaw("/wallet/getblockbynum", { body: { num: number }, signal })).body;
        }
        await pipeInto(body, res);
      }
      res.end("]}");
    } catch (error) {
      if (!signal.aborted) logger.error({ err: error }, "a block stream failed after the answer started; connection cut");
      body.destroy();
      res.destroy(error as Error);
    }
  };
}

/** Copies a node body into the response without ending it, honouring back-pressure. */
async function pipeInto(body: Readable, res: Response): Promise<void> {
  for await (const chunk of body) {
    if (!res.write(chunk as Buffer)) await once(res, "drain");
  }
}
