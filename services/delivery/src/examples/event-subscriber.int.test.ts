/**
 * The client helper of @chaingate/api-client (`createEventSubscriber`, issue #30) against a real
 * delivery: a receiver that silently loses every third push (answers 200, keeps nothing) still hands
 * its crediting code every event exactly once, oldest first, by reading each gap through the cursor
 * when the next push shows it, and the tail with `catchUp`. The client talks to the delivery's
 * internal edge with the headers the gateway adds (the gateway's forwarding is tested elsewhere).
 */
import { readFileSync } from "node:fs";
import { createApiClient, SignatureError, type Notification } from "@chaingate/api-client";
import { createDepositHandler } from "@chaingate/api-client/examples/credit-deposits";
import { transferMatched } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { expect } from "vitest";
import { transferFor } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

const EVENTS = 30;

it("hands the crediting code every event once, oldest first, though every third push is lost", async ({ harness }) => {
  const webhook = await harness.createWebhook({ path: "/lossy" });
  const client = createApiClient({
    baseUrl: harness.delivery.url,
    apiKey: "unused at the internal edge",
    fetch: (input, init) => {
      const request = new Request(input, init);
      request.headers.set(ACCOUNT_ID_HEADER, "1");
      request.headers.set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN);
      return fetch(request);
    },
  });
  const credited: Notification[] = [];
  const handler = createDepositHandler(client, { ...webhook, lastSequence: 0 }, async (event) => void credited.push(event));
  const handling: Promise<unknown>[] = [];
  let pushes = 0;
  harness.receiver.on("/lossy", (request, res) => {
    pushes++;
    res.end("ok");
    if (pushes % 3 === 0) return; // lost: answered, never handled
    const headers = request.headers as Record<string, string>;
    handling.push(handler.handle(headers, request.body));
  });

  const events = Array.from({ length: EVENTS }, () => transferFor(webhook.id));
  for (const event of events) await harness.bus.publish(transferMatched, event);
  await expect.poll(() => pushes, { timeout: 15_000 }).toBe(EVENTS);
  await Promise.all(handling);
  expect(await handler.catchUp()).toBe(EVENTS);

  const sequences = credited.map((event) => ("sequence" in event ? event.sequence : 0));
  expect(sequences).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
  expect(credited.map((event) => event.event_id)).toEqual(events.map((event) => event.event_id));
  // A push handled again (a retry, a replay) credits nothing; a forged one is refused.
  const replay = harness.receiver.received.filter((r) => r.path === "/lossy").at(-1)!;
  expect(await handler.handle(replay.headers as Record<string, string>, replay.body)).toBe(EVENTS);
  expect(credited).toHaveLength(EVENTS);
  await expect(handler.handle(replay.headers as Record<string, string>, replay.body.replace("0.00012345", "9"))).rejects.toThrow(
    SignatureError,
  );
});

it("is quoted verbatim in docs/api.md", () => {
  const docs = readFileSync(new URL("../../../../docs/api.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("../../../../generated/api-client/src/examples/credit-deposits.ts", import.meta.url), "utf8");
  expect(docs).toContain("```ts\n" + example + "```");
});
