/** The gateway's own routes' authentication: the one the proxied paths use, as express middleware. */
import type { RequestHandler } from "express";
import type { AuthenticateRequest } from "./authenticate-request.ts";

/** Refuses as every proxied path does (status, `{message}`, Retry-After); otherwise puts the key in `res.locals.key`. */
export function authenticatedBy(authenticate: AuthenticateRequest, group: string): RequestHandler {
  return (req, res, next) => {
    authenticate(req.headers, group).then((outcome) => {
      if ("refusal" in outcome) {
        const { status, message, retryAfterSeconds } = outcome.refusal;
        if (retryAfterSeconds !== undefined) res.setHeader("retry-after", String(retryAfterSeconds));
        return void res.status(status).json({ message });
      }
      res.locals.key = outcome.key;
      next();
    }, next);
  };
}
