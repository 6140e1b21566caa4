/**
 * Headers the gateway sets on requests it forwards to internal services. The gateway strips any
 * client-sent copy first, so a service may trust them once the request proves it came from the
 * gateway (the internal token; internal ports are also never public).
 */
export const ACCOUNT_ID_HEADER = "x-chaingate-account-id";
export const REQUEST_ID_HEADER = "x-request-id";
/** The shared secret (INTERNAL_TOKEN) that proves a request came from the gateway. */
export const INTERNAL_TOKEN_HEADER = "x-chaingate-internal-token";
