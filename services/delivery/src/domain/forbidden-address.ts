/**
 * The SSRF rule: which IP addresses a webhook may never reach. Everything ipaddr.js does not
 * classify as `unicast` (public) is refused: loopback, private, link-local, CGNAT (`carrierGradeNat`),
 * multicast, unspecified, broadcast, reserved, and the IPv6 forms (unique local, IPv4-mapped,
 * 6to4/Teredo/NAT64 embeddings are judged by the IPv4 address they carry). `WEBHOOK_ALLOW_CIDRS`
 * lets operator-listed ranges through (tests, labs).
 */
import ipaddr from "ipaddr.js";

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses `WEBHOOK_ALLOW_CIDRS` (comma-separated, blanks ignored). @throws on a malformed entry. */
export function parseAllowCidrs(text: string): Cidr[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => ipaddr.parseCIDR(part));
}

/** The IPv4 address an IPv6 one embeds (mapped, 6to4, NAT64 well-known prefix, IPv4-compatible), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === "6to4") return new ipaddr.IPv4(bytes.slice(2, 6));
  if (range === "rfc6052" || range === "rfc6145") return new ipaddr.IPv4(bytes.slice(12, 16));
  // ::a.b.c.d (deprecated IPv4-compatible) reaches the IPv4 host on dual-stack systems.
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}

function allowed(address: ipaddr.IPv4 | ipaddr.IPv6, allow: readonly Cidr[]): boolean {
  return allow.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** True when a webhook must not connect to `ip` (text form, v4 or v6). Unparseable counts as forbidden. */
export function isForbiddenAddress(ip: string, allow: readonly Cidr[] = []): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip.replace(/^\[|\]$/g, ""));
  } catch {
    return true;
  }
  if (allowed(address, allow)) return false;
  if (address.kind() === "ipv6") {
    const v4 = embeddedIpv4(address as ipaddr.IPv6);
    if (v4) return allowed(v4, allow) ? false : v4.range() !== "unicast";
    // Teredo embeds an obfuscated client address; refuse it with the rest.
  }
  return address.range() !== "unicast";
}
