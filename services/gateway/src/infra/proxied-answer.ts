/**
 * One proxied call's answer, written straight into the client's response: an undici dispatch
 * handler. It replaces undici's `stream()` on the hot path, which per request made an
 * AsyncResource, a promise, parsed header object and `finished()` with its half-dozen listeners on
 * the response (about a tenth of the gateway's CPU per request at c=50, docs/design/gateway.md).
 *
 * - Headers are copied as a flat array (no object, no `delete`), hop-by-hop ones left out, values
 *   byte for byte (latin1), with the gateway's own answer headers (the request id) in front.
 * - A whole small body (one chunk of the announced length) goes out with the headers in one
 *   `end()`; larger ones are written chunk by chunk, pausing the service's socket while the
 *   client's is full.
 * - A client that leaves cancels the call (and the node call the service started for it).
 */
import type { ServerResponse } from "node:http";
import { util as undiciUtil, type Dispatcher } from "undici";
import type { BufferGarbageBound } from "@chaingate/http";

/** Connection-scoped headers (RFC 9110 §7.6.1) and ones undici refuses to forward. */
export const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect",
  "host",
]);

export interface ProxiedAnswerEvents {
  /** The call failed before or while answering and the client is still there (not called for a cancelled call). */
  failed(error: Error, headersSent: boolean): void;
  /** The exchange is over, whichever way. */
  settled?(): void;
}

export class ProxiedAnswer implements Dispatcher.DispatchHandler {
  private abortCall: ((reason: Error) => void) | undefined;
  private resume: (() => void) | undefined;
  /** The answer's Content-Length, when it has one. */
  private announcedLength: string | undefined;
  /** The whole body, when it came in one chunk: sent with end(). */
  private heldBody: Buffer | undefined;
  private over = false;
  private cancelled = false;
  private readonly res: ServerResponse;
  /** Flat name/value pairs the gateway adds to every answer. */
  private readonly ownHeaders: readonly string[];
  private readonly events: ProxiedAnswerEvents;
  private readonly garbageBound: BufferGarbageBound | undefined;

  constructor(
    res: ServerResponse,
    ownHeaders: readonly string[],
    events: ProxiedAnswerEvents,
    garbageBound: BufferGarbageBound | undefined,
  ) {
    this.res = res;
    this.ownHeaders = ownHeaders;
    this.events = events;
    this.garbageBound = garbageBound;
    res.on("close", this.onClientClosed);
  }

  /** The client's response closed: after a complete answer nothing is left to do; before, the call is cancelled. */
  private readonly onClientClosed = (): void => {
    if (this.over) return;
    this.cancelled = true;
    this.abortCall?.(new Error("the client closed the connection"));
  };

  private settle(): void {
    this.over = true;
    this.events.settled?.();
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.cancelled) return abort(new Error("the client closed the connection"));
    this.abortCall = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx informational answers are not passed on; the final one follows.
    if (statusCode < 200) return true;
    this.resume = resume;
    const headers = this.ownHeaders.slice();
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = undiciUtil.headerNameToString(rawHeaders[i]!);
      if (HOP_BY_HOP.has(name)) continue;
      const value = rawHeaders[i + 1]!.toString("latin1");
      if (name === "content-length") this.announcedLength = value;
      headers.push(name, value);
    }
    this.res.writeHead(statusCode, headers);
    this.garbageBound?.watch(this.res, this.announcedLength);
    return true;
  }

  onData(chunk: Buffer): boolean {
    // The whole announced body in one chunk: it leaves with the headers when the call completes
    // (in the same parser pass), one write instead of two.
    if (this.announcedLength !== undefined && chunk.length === Number(this.announcedLength)) {
      this.heldBody = chunk;
      return true;
    }
    if (this.res.write(chunk)) return true;
    this.res.once("drain", this.resume!);
    return false;
  }

  onComplete(): void {
    const body = this.heldBody;
    this.heldBody = undefined;
    this.settle();
    if (body) this.res.end(body);
    else this.res.end();
  }

  onError(error: Error): void {
    if (this.over) return;
    this.settle();
    if (this.cancelled || this.res.destroyed) return;
    this.events.failed(error, this.res.headersSent);
  }
}
