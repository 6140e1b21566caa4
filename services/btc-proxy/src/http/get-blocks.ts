/**
 * Block reads. Bodies of verbosity-2 blocks are streamed from the node to the client.
 *   GET /api/v1/btc/block/{blockNumber}           getblockhash + getblock(hash, 2)
 *   GET /api/v1/btc/block/hash/{blockHash}         getblock(hash, 2)
 *   GET /api/v1/btc/block/hash/{blockHash}/header  getblockheader(hash, true)
 *   GET /api/v1/btc/block/hash/{blockHash}/transactions/count
 *   GET /api/v1/btc/block/best                     { hash, height } of the tip
 */
import { abortOnClose } from "@chaingate/http";
import type { RequestHandler } from "express";
import { streamNodeResult, type ProxyRoute } from "@chaingate/chain-proxy";

/** getblockhash takes a 32-bit int: a larger height is no block number on any node. */
const MAX_HEIGHT = 0x7fffffff;
const VERBOSITY_FULL_TRANSACTIONS = 2;

export function getBlockByHeight(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    // The route's constraint made a non-integer a routing miss (404).
    const raw = String(req.params.blockNumber);
    if (raw.startsWith("-")) {
      res.status(400).json({ error: "The block number must be a non-negative integer." });
      return;
    }
    if (Number(raw) > MAX_HEIGHT) {
      res.status(400).json({ error: `The block number must be a non-negative integer no greater than ${MAX_HEIGHT}.` });
      return;
    }
    const hash = await route.node.call<string>("getblockhash", [Number(raw)], { signal: abortOnClose(res) });
    await streamNodeResult(route, res, "getblock", [hash, VERBOSITY_FULL_TRANSACTIONS]);
  };
}

export function getBlockByHash(route: ProxyRoute): RequestHandler {
  return (req, res) => streamNodeResult(route, res, "getblock", [String(req.params.blockHash), VERBOSITY_FULL_TRANSACTIONS]);
}

export function getBlockHeader(route: ProxyRoute): RequestHandler {
  return (req, res) => streamNodeResult({ ...route, garbageBound: undefined }, res, "getblockheader", [String(req.params.blockHash), true]);
}

export function getBlockTransactionCount({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    // The header carries nTx: no need to read the block's body.
    const header = await node.call<{ nTx?: number }>("getblockheader", [String(req.params.blockHash), true], { signal: abortOnClose(res) });
    res.json({ transactionCount: header.nTx ?? null });
  };
}

export function getBestBlock({ node }: ProxyRoute): RequestHandler {
  return async (_req, res) => {
    // One call, so hash and height describe the same tip.
    const info = await node.call<{ bestblockhash: string; blocks: number }>("getblockchaininfo", [], { signal: abortOnClose(res) });
    res.json({ hash: info.bestblockhash, height: info.blocks });
  };
}
