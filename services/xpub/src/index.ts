export { createXpubService, type XpubService } from "./create-xpub-service.ts";
export { xpubConfigSchema, DEFAULT_MAX_ADDRESSES_PER_KEY, type XpubConfig } from "./config.ts";
export { XPUB_SCHEMA } from "./infra/database-schema.ts";
