/** `JSONRPC_BODY_LIMIT`: one setting, one form, in the three chain proxies; each passes its default. */
import { env } from "@chaingate/config";

export function jsonRpcBodyLimitSetting(fallback: string) {
  return env
    .byteSize(fallback)
    .describe(
      "Largest POST /jsonrpc body: `512kb`, `5mb`, `1gb` or a number of bytes; any other value stops the service at start-up, naming the variable.",
    );
}
