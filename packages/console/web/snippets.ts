/**
 * The signature verification snippets the README publishes, read from the files the delivery
 * service's tests run against real deliveries (services/delivery/src/examples): one source, no copy.
 */
import standardWebhooks from "../../../services/delivery/src/examples/verify-standard-webhooks.ts?raw";
import svix from "../../../services/delivery/src/examples/verify-svix.ts?raw";
import specSignature from "../../../services/delivery/src/examples/verify-spec-signature.ts?raw";

export interface Snippet {
  id: string;
  title: string;
  code: string;
  /** How to call it with this webhook's secret. */
  call(secret: string): string;
}

export const SNIPPETS: Snippet[] = [
  { id: "standard-webhooks", title: "Standard Webhooks (standardwebhooks)", code: standardWebhooks, call: (secret) => `verifyStandardWebhook(${JSON.stringify(secret)}, headers, rawBody);` },
  { id: "svix", title: "Svix (svix)", code: svix, call: (secret) => `verifySvixWebhook(${JSON.stringify(secret)}, headers, rawBody);` },
  { id: "spec", title: "No library (X-Service-Signature)", code: specSignature, call: (secret) => `verifyChaingateSignature(${JSON.stringify(secret)}, req.headers, rawBody);` },
];
