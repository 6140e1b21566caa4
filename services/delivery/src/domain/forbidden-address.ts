/**
 * The SSRF rule: which IP addresses a webhook may never reach, at save time (check-webhook-url.ts)
 * and when connecting (infra/send-notification.ts). Everything ipaddr.js does not classify as
 * `unicast` (public) is refused: loopback, private, link-local, CGNAT (`carrierGradeNat`),
 * multicast, unspecified, broadcast, reserved, and the IPv6 forms (unique local, IPv4-mapped,
 * 6to4/Teredo/NAT64 embeddings are judged by the IPv4 address they carry). The cloud providers'
 * metadata and platform addresses are refused too, in every form, even when public or inside a
 * range `WEBHOOK_ALLOW_CIDRS` lets through (tests, labs).
 */
import ipaddr from "ipaddr.js";

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Instance metadata and platform endpoints: never a subscriber's receiver, and reaching one can
 * hand out credentials. Azure's WireServer is public-range unicast, so the classification alone
 * lets it through; the others are refused by it already, listed so an allowed range cannot open them.
 */
export const PLATFORM_ADDRESSES: readonly Cidr[] = [
  "169.254.169.254/32", // instance metadata: AWS, GCP (metadata.google.internal), Azure, Oracle, DigitalOcean, OpenStack, …
  "169.254.170.2/32", // AWS ECS task metadata and credentials
  "169.254.170.23/32", // AWS EKS Pod Identity agent
  "169.254.0.23/32", // Tencent Cloud metadata
  "168.63.129.16/32", // Azure WireServer and host DNS (public range)
  "192.0.0.192/32", // Oracle Cloud metadata (older endpoint)
  "100.100.100.200/32", // Alibaba Cloud metadata
  "fd00:ec2::254/128", // AWS instance metadata over IPv6
  "fd00:ec2::23/128", // AWS EKS Pod Identity agent over IPv6
  "fd20:ce::254/128", // GCP metadata over IPv6
].map((cidr) => ipaddr.parseCIDR(cidr));

/** NAT64's local-use prefix (RFC 8215): where the IPv4 address sits in it is the network's choice, so what it reaches is unknown. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48");

/** Parses `WEBHOOK_ALLOW_CIDRS` (comma-separated, blanks ignored). @throws on a malformed entry. */
export function parseAllowCidrs(text: string): Cidr[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => ipaddr.parseCIDR(part));
}

/** The IPv4 address an IPv6 one embeds (mapped, translated, 6to4, NAT64 well-known prefix, IPv4-compatible), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === "6to4") return new ipaddr.IPv4(bytes.slice(2, 6));
  // rfc6052 here is the well-known 64:ff9b::/96 (the local-use /48 is refused before).
  if (range === "rfc6052" || range === "rfc6145") return new ipaddr.IPv4(bytes.slice(12, 16));
  // ::a.b.c.d (deprecated IPv4-compatible) reaches the IPv4 host on dual-stack systems.
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}

function inAny(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly Cidr[]): boolean {
  return ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** True when a webhook must not connect to `ip` (text form, v4 or v6). Unparseable counts as forbidden. */
export function isForbiddenAddress(ip: string, allow: readonly Cidr[] = []): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip.replace(/^\[|\]$/g, ""));
  } catch {
    return true;
  }
  const v4 = address.kind() === "ipv6" ? embeddedIpv4(address as ipaddr.IPv6) : null;
  // Before the allow list: no operator range opens a platform address.
  if (inAny(address, PLATFORM_ADDRESSES) || (v4 && inAny(v4, PLATFORM_ADDRESSES))) return true;
  if (inAny(address, allow)) return false;
  if (address.kind() === "ipv6" && inAny(address, [LOCAL_USE_NAT64])) return true;
  // Teredo embeds an obfuscated client address: no IPv4 read out, refused as non-unicast below.
  if (v4) return inAny(v4, allow) ? false : v4.range() !== "unicast";
  return address.range() !== "unicast";
}
