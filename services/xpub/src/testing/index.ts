export { startTestXpub } from "./start-test-xpub.ts";
export { auditIssuedAddresses, type IssuedAddressAudit } from "./issued-address-audit.ts";
