/**
 * Save-time SSRF check of a webhook URL: http(s) only, no credentials, and every address the host
 * resolves to must be public (a name with one private address among public ones is refused: the
 * resolver may hand out that one later). Delivery checks again at connect time.
 */
import { isIP } from "node:net";
import { isForbiddenAddress, type Cidr } from "./forbidden-address.ts";

export const URL_NOT_HTTP = "The webhook url must be a valid http or https URL.";
export const URL_NOT_PUBLIC =
  "The webhook url must point to a publicly reachable host; loopback, private, link-local and other internal addresses are not allowed.";
export const URL_NOT_RESOLVED = "The webhook url host could not be resolved.";

/** Resolves a host name to all its addresses (node's dns.lookup with all: true in production). */
export type ResolveHost = (host: string) => Promise<string[]>;

/** The reason `url` is refused, or null when it may be saved. */
export async function checkWebhookUrl(url: string, resolve: ResolveHost, allow: readonly Cidr[]): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return URL_NOT_HTTP;
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.hostname || parsed.username || parsed.password)
    return URL_NOT_HTTP;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return URL_NOT_RESOLVED;
    }
    if (addresses.length === 0) return URL_NOT_RESOLVED;
  }
  return addresses.some((address) => isForbiddenAddress(address, allow)) ? URL_NOT_PUBLIC : null;
}
