/** The OpenAPI document's example bodies are what the schemas accept, and the document carries one per event type. */
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "../../openapi/build-openapi-document.ts";
import {
  coverageNotificationExample,
  deliveryExhaustedNotificationExample,
  mempoolNotificationExample,
  testNotificationExample,
  transferNotificationExample,
  webhookDisabledNotificationExample,
} from "./notification-examples.ts";
import {
  coverageNotificationSchema,
  deliveryExhaustedNotificationSchema,
  mempoolNotificationSchema,
  notificationSchema,
  testNotificationSchema,
  transferNotificationSchema,
  webhookDisabledNotificationSchema,
} from "./notification-schemas.ts";

it.for([
  ["transfer", transferNotificationSchema, transferNotificationExample],
  ["pending", mempoolNotificationSchema, mempoolNotificationExample],
  ["coverage", coverageNotificationSchema, coverageNotificationExample],
  ["delivery.exhausted", deliveryExhaustedNotificationSchema, deliveryExhaustedNotificationExample],
  ["webhook.disabled", webhookDisabledNotificationSchema, webhookDisabledNotificationExample],
  ["test", testNotificationSchema, testNotificationExample],
] as const)("the %s example parses with its schema, unchanged, and as a notification", ([, schema, example]) => {
  expect(schema.parse(example)).toEqual(example);
  expect(notificationSchema.parse(example)).toEqual(example);
});

it("every event type of the document's webhooks has its example", () => {
  const webhooks = buildOpenApiDocument().webhooks as Record<
    string,
    { post: { requestBody: { content: { "application/json": { example?: { type: string } } } } } }
  >;
  expect(
    Object.fromEntries(
      Object.entries(webhooks).map(([type, item]) => [type, item.post.requestBody.content["application/json"].example?.type]),
    ),
  ).toEqual({
    transfer: "transfer",
    pending: "pending",
    "delivery.exhausted": "delivery.exhausted",
    "webhook.disabled": "webhook.disabled",
    coverage: "coverage",
    test: "test",
  });
});
