/** For tests: a node client whose callRaw is scripted, recording every body it was sent. */
import { createNodeClient, ethereum, type CallOptions, type NodeClient, type RawNodeResponse } from "@chaingate/node-client";

export function scriptedNodeClient(callRaw: (body: string, options: CallOptions) => Promise<RawNodeResponse>): {
  node: NodeClient;
  sent: string[];
} {
  const sent: string[] = [];
  const node: NodeClient = {
    ...createNodeClient({ chain: ethereum, urls: [] }),
    callRaw: (body, options = {}) => {
      sent.push(body);
      return callRaw(body, options);
    },
  };
  return { node, sent };
}
