/**
 * An AbortSignal that fires when the client goes away before its response is complete, so the
 * work the request started (a node call) is cancelled rather than finished for nobody.
 */
import type { Response } from "express";

export function abortOnClose(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort(new Error("the client closed the connection before the response was complete"));
  });
  return controller.signal;
}
