/** The webhook registry's limits: address counts and lengths, page sizes and page numbers. */
import { MAX_PAGE } from "../xpub.ts";

/** The spec's limit for one address entry. */
export const WEBHOOK_ADDRESS_MAX_CHARS = 255;
/**
 * Most addresses in one create, PUT or batch body. 10,000 addresses are about 0.5 MB of JSON (under
 * the gateway's body cap) and one insert statement; a webhook grows past that through the batch
 * endpoints, so a 1,000,000-address webhook never needs one huge body.
 */
export const WEBHOOK_ADDRESSES_PER_REQUEST = 10_000;
/**
 * Most addresses of one webhook in a list answer (`GET /webhooks`), the first in address order;
 * `address_count` says how many it watches and `GET /webhooks/{id}/addresses` pages the rest. The
 * spec advises under about 1,000 per webhook, so a client within that still sees every address.
 */
export const WEBHOOK_LIST_ADDRESS_CAP = 1_000;
/** Address pages: default and largest `per_page` of `GET /webhooks/{id}/addresses`. */
export const WEBHOOK_ADDRESS_PAGE_DEFAULT = 1_000;
export const WEBHOOK_ADDRESS_PAGE_MAX = 10_000;
/**
 * Largest `page` of the registry's paged answers (webhooks, addresses, deliveries). A page number is
 * an offset, `(page - 1) × per_page`: bounded, it stays an exact integer and a Postgres bigint
 * (16 digits times 10,000 overflowed into a 500), and 10,000,000 pages still reach the ten millionth
 * row at `per_page=1`. Past the last page the answer is empty; `after` reads deep address lists.
 */
export const WEBHOOK_MAX_PAGE = MAX_PAGE;
/** Most extended-key records one webhook auto-watches. */
export const WEBHOOK_MAX_XPUB_IDS = 100;
