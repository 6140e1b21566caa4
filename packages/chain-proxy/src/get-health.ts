/**
 * GET /api/v1/<chain>/health of every proxy: `{status: "ok", time, ...}` with what the chain's
 * probe read from the node, or 500 `{status: "error", message}` with the generic node message when
 * the node fails (spec, Errors), so a client can tell an outage from the other endpoints' 500.
 */
import { abortOnClose } from "@chaingate/http";
import { nodeFailureDetails, type NodeClient } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { genericNodeError } from "./node-error-responses.ts";
import type { ProxyRoute } from "./proxy-route.ts";

/** What a chain's health answer reads from its node, and how it shows it. */
export interface HealthProbe<Answer> {
  /** Asks the node; a node failure here is the route's 500. */
  read(node: NodeClient, signal: AbortSignal): Promise<Answer>;
  /** The members after `status` and `time`; `now` is the answer's `time`. */
  describe(answer: Answer, now: Date): Record<string, unknown>;
}

export function getHealth<Answer>({ node }: Pick<ProxyRoute, "node">, probe: HealthProbe<Answer>): RequestHandler {
  return async (_req, res) => {
    let answer: Answer;
    try {
      answer = await probe.read(node, abortOnClose(res));
    } catch (error) {
      // A node failure is what this endpoint reports, in its own error shape; anything else is a
      // fault of ours and goes to the error handler, which logs it.
      if (nodeFailureDetails(error) === undefined) throw error;
      res.status(500).json({ status: "error", message: genericNodeError(node.chain) });
      return;
    }
    const now = new Date();
    res.json({ status: "ok", time: now.toISOString(), ...probe.describe(answer, now) });
  };
}
