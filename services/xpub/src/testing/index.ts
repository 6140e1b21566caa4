export { startTestXpub } from "./start-test-xpub.ts";
export { auditIssuedAddresses, type IssuedAddressAudit } from "./issued-address-audit.ts";
export { BIP84_VECTORS } from "./bip84-vectors.ts";
export { runXpubAdmin, type XpubAdminRun } from "./run-xpub-admin.ts";
export { freshAccountKey, freshEvmAccountKey } from "./same-node-other-text.ts";
