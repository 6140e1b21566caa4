/**
 * The signature verification snippets docs/api.md publishes, read from the files the delivery
 * service's tests run against real deliveries (services/delivery/src/examples): one source, no copy.
 */
// The one place a package reads a service: as text shown to the user, never as code it runs.
/* eslint-disable import-x/no-restricted-paths */
import standardWebhooks from "@chaingate/delivery/examples/verify-standard-webhooks?raw";
import svix from "@chaingate/delivery/examples/verify-svix?raw";
import specSignature from "@chaingate/delivery/examples/verify-spec-signature?raw";
/* eslint-enable import-x/no-restricted-paths */

export interface Snippet {
  id: string;
  title: string;
  code: string;
  /** How to call it with this webhook's secret. */
  call(secret: string): string;
}

export const SNIPPETS: Snippet[] = [
  {
    id: "standard-webhooks",
    title: "Standard Webhooks (standardwebhooks)",
    code: standardWebhooks,
    call: (secret) => `verifyStandardWebhook(${JSON.stringify(secret)}, headers, rawBody);`,
  },
  { id: "svix", title: "Svix (svix)", code: svix, call: (secret) => `verifySvixWebhook(${JSON.stringify(secret)}, headers, rawBody);` },
  {
    id: "spec",
    title: "No library (X-Service-Signature)",
    code: specSignature,
    call: (secret) => `verifyChaingateSignature(${JSON.stringify(secret)}, req.headers, rawBody);`,
  },
];
