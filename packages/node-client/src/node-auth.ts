/**
 * Credentials for a node: HTTP basic (rpcuser/rpcpassword), bitcoind's cookie file (re-read on
 * 401: the node writes a new one at every start), an API-key header (hosted providers, e.g.
 * TronGrid's `TRON-PRO-API-KEY`), or none (a local Hardhat or java-tron node).
 */
import { readFile } from "node:fs/promises";

export type NodeAuth = { user: string; password: string } | { cookieFile: string } | { apiKeyHeader: string; apiKey: string } | "none";

/** The headers that authenticate a request; `refresh` re-reads a cookie file the node may have rotated. */
export type Authorizer = (refresh: boolean) => Promise<Record<string, string>>;

export function createAuthorizer(auth: NodeAuth): Authorizer {
  if (auth === "none") return async () => ({});
  if ("user" in auth) {
    const headers = { authorization: basic(`${auth.user}:${auth.password}`) };
    return async () => headers;
  }
  if ("apiKeyHeader" in auth) {
    const headers = { [auth.apiKeyHeader.toLowerCase()]: auth.apiKey };
    return async () => headers;
  }
  let cookie: string | undefined;
  return async (refresh) => {
    if (refresh || cookie === undefined) {
      // The file holds "__cookie__:<random>", written by the node at start-up.
      cookie = (await readFile(auth.cookieFile, "utf8")).trim();
    }
    return { authorization: basic(cookie) };
  };
}

/** Whether a 401/403 is worth one retry with re-read credentials. */
export function canRefresh(auth: NodeAuth): boolean {
  return auth !== "none" && "cookieFile" in auth;
}

function basic(userPassword: string): string {
  return `Basic ${Buffer.from(userPassword).toString("base64")}`;
}
