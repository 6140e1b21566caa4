/**
 * Block reads. Bodies of verbosity-2 blocks are streamed from the node to the client.
 *   GET /api/v1/btc/block/{blockNumber}           getblockhash + getblock(hash, 2)
 *   GET /api/v1/btc/block/hash/{blockHash}         getblock(hash, 2)
 *   GET /api/v1/btc/block/hash/{blockHash}/header  getblockheader(hash, true)
 *   GET /api/v1/btc/block/hash/{blockHash}/transactions/count
 *   GET /api/v1/btc/block/best                     { hash, height } of the tip
 */
import type { RequestHandler } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { nodeFailure } from "./node-error-response.ts";
import { streamNodeResult } from "./stream-node-result.ts";
import { send, type BufferGarbageBound } from "@chaingate/http";

/** getblockhash takes a 32-bit int; anything larger is out of range on every node. */
const MAX_HEIGHT = 0x7fffffff;
const VERBOSITY_FULL_TRANSACTIONS = 2;

export function getBlockByHeight(node: BitcoinRpcClient, garbageBound?: BufferGarbageBound): RequestHandler {
  return async (req, res) => {
    // The route's constraint made a non-integer a routing miss (404).
    const raw = String(req.params.blockNumber);
    if (raw.startsWith("-")) {
      res.status(400).json({ error: "The block number must be a non-negative integer." });
      return;
    }
    const height = Number(raw);
    if (height > MAX_HEIGHT) return send(res, nodeFailure("invalid_argument", { node_code: -8, node_message: "Block height out of range" }));
    const hash = await node.call<string>("getblockhash", [height]);
    await streamNodeResult(node, res, "getblock", [hash, VERBOSITY_FULL_TRANSACTIONS], garbageBound);
  };
}

export function getBlockByHash(node: BitcoinRpcClient, garbageBound?: BufferGarbageBound): RequestHandler {
  return (req, res) => streamNodeResult(node, res, "getblock", [String(req.params.blockHash), VERBOSITY_FULL_TRANSACTIONS], garbageBound);
}

export function getBlockHeader(node: BitcoinRpcClient): RequestHandler {
  return (req, res) => streamNodeResult(node, res, "getblockheader", [String(req.params.blockHash), true]);
}

export function getBlockTransactionCount(node: BitcoinRpcClient): RequestHandler {
  return async (req, res) => {
    // The header carries nTx: no need to read the block's body.
    const header = await node.call<{ nTx?: number }>("getblockheader", [String(req.params.blockHash), true]);
    res.json({ transactionCount: header.nTx ?? null });
  };
}

export function getBestBlock(node: BitcoinRpcClient): RequestHandler {
  return async (_req, res) => {
    // One call, so hash and height describe the same tip.
    const info = await node.call<{ bestblockhash: string; blocks: number }>("getblockchaininfo");
    res.json({ hash: info.bestblockhash, height: info.blocks });
  };
}
