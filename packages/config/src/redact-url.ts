/**
 * The one rule for showing a URL that may carry credentials (start-up config lines, node client
 * errors and upstream lists, the scanner's announcement channels): the password, key-like path
 * segments and every query value are masked. Every query value, not only secret-named ones:
 * providers name their key parameter freely (`apikey`, `x-api-key`, `auth`, `dkey`...), and a
 * query holds nothing an operator needs to read in a log.
 */

/** A path segment that looks like a provider key (Infura /v3/<key>, Alchemy /v2/<key>, QuickNode /<token>/): long, with letters and digits. */
const KEY_LIKE_SEGMENT = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{16,}$/;
export const REDACTED = "[redacted]";

/** A URL with its secrets masked; anything that is not an absolute URL comes back unchanged. */
export function redactUrl(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(value);
  if (!match) return value;
  const [, scheme, authority = "", path = "", query = "", fragment = ""] = match;
  // Edited as text, not through URL, so what is not secret keeps its exact spelling.
  const maskedAuthority = authority.replace(/^([^:@]*):[^@]*@/, "$1:redacted@");
  const maskedPath = path
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(segment) ? REDACTED : segment))
    .join("/");
  const maskedQuery = query.replace(
    /([?&])([^=&]+)=([^&]*)/g,
    (_whole, separator: string, name: string) => `${separator}${name}=${REDACTED}`,
  );
  return `${scheme}${maskedAuthority}${maskedPath}${maskedQuery}${fragment}`;
}
