/** One configured node URL: where requests go, how it is shown, its credentials and its health. */
import { redactUrl } from "@chaingate/config";
import { canRefresh, createAuthorizer, type Authorizer, type NodeAuth } from "../node-auth.ts";
import type { Attempt } from "./node-client-context.ts";

export interface Upstream {
  /** Origin + path (+ query), no user info, no trailing slash: what requests go to. */
  url: string;
  /** `url` as logs, errors and upstreams() show it: provider keys in the path or query masked. */
  displayUrl: string;
  authorize: Authorizer | undefined;
  refreshable: boolean;
  unhealthyUntil: number;
  lastError?: string;
  /** `verifyEndpoint` accepted it since it last failed. */
  verified: boolean;
  /** The check under way: concurrent calls share it. */
  verifying?: Promise<Attempt<undefined>>;
  refused?: string;
}

/** A URL's credentials move out of it: the stored and displayed URL never carries them. */
export function toUpstream(rawUrl: string, auth: NodeAuth, requiresAuth: boolean): Upstream {
  const url = new URL(rawUrl);
  let upstreamAuth = auth;
  if (url.username !== "") {
    upstreamAuth = { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
    url.username = "";
    url.password = "";
  }
  const missing = upstreamAuth === "none" && requiresAuth;
  return {
    url: url.toString().replace(/\/$/, ""),
    // User info is already out of `url`; the shared rule masks key-like path segments and the query.
    displayUrl: redactUrl(url.toString()).replace(/\/$/, ""),
    authorize: missing ? undefined : createAuthorizer(upstreamAuth),
    refreshable: canRefresh(upstreamAuth),
    unhealthyUntil: 0,
    verified: false,
  };
}

/** `path` appended to the URL's own path, its query kept (a provider key may sit there). */
export function targetUrl(base: string, path: string): string {
  if (path === "") return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${path}`;
  return url.toString();
}
