/**
 * Headers the gateway sets on requests it forwards to internal services. The gateway strips any
 * client-sent copy first, so a service may trust them (internal ports are never public).
 */
export const ACCOUNT_ID_HEADER = "x-chaingate-account-id";
export const REQUEST_ID_HEADER = "x-request-id";
