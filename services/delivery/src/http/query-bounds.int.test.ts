/**
 * Every number a client puts in a delivery route's query, path or body is bounded: a page number or
 * size past its maximum is a 422 in the spec's shape (`{message, errors: {field: [..]}}`), never an
 * OFFSET that overflows in Postgres (a 500); an xpub id past the exact integers is a 422 naming it;
 * an id in the path past them is a 404. At the service's internal edge, so the answers are checked
 * against the OpenAPI document too.
 */
import { WEBHOOK_MAX_PAGE } from "@chaingate/contracts";
import { accountSequence, type InternalEdge } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const alice = accountSequence()();

async function get(edge: InternalEdge, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${edge.url}${path}`, { headers: { ...edge.headersFor(alice.accountId), accept: "application/json" } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Alice's one webhook (inactive), whose pages the tests ask for. */
const it = deliveryTest.extend<{ webhookId: number }>({
  webhookId: [
    async ({ edge }, use) => {
      const created = await fetch(`${edge.url}/api/v1/webhooks`, {
        method: "POST",
        headers: { ...edge.headersFor(alice.accountId), "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          coin: "ETH",
          webhook_url: "http://93.184.216.34/hook",
          addresses: [`0x${"3".repeat(40)}`],
          is_active: false,
        }),
      });
      await use(((await created.json()) as { data: { id: number } }).data.id);
    },
    { scope: "file" },
  ],
});

const HUGE_PAGE = "9999999999999999";
const pageTooLarge = `The page field must not be greater than ${WEBHOOK_MAX_PAGE}.`;

describe("page numbers", () => {
  const paged = (webhookId: number) => [
    ["the webhook list", "/api/v1/webhooks"],
    ["a webhook's addresses", `/api/v1/webhooks/${webhookId}/addresses`],
    ["a webhook's deliveries", `/api/v1/webhooks/${webhookId}/deliveries`],
  ];

  it.for([
    ["default per_page", ""],
    ["the largest per_page", "&per_page=500"],
  ])("a page of 16 digits is a 422 naming page on every paged route (%s)", async ([, perPage], { edge, webhookId }) => {
    for (const [what, path] of paged(webhookId)) {
      const answer = await get(edge, `${path}?page=${HUGE_PAGE}${perPage}`);
      expect({ what, ...answer }).toEqual({ what, status: 422, body: { message: pageTooLarge, errors: { page: [pageTooLarge] } } });
    }
  });

  it("the address pages' largest per_page with a 16-digit page is a 422, not an OFFSET past bigint", async ({ edge, webhookId }) => {
    const answer = await get(edge, `/api/v1/webhooks/${webhookId}/addresses?page=${HUGE_PAGE}&per_page=10000&after=0x00`);
    expect(answer).toEqual({ status: 422, body: { message: pageTooLarge, errors: { page: [pageTooLarge] } } });
  });

  it(`page ${WEBHOOK_MAX_PAGE} is the last one accepted: an empty page with the real meta; one more is a 422`, async ({
    edge,
    webhookId,
  }) => {
    for (const [what, path] of paged(webhookId)) {
      const last = await get(edge, `${path}?page=${WEBHOOK_MAX_PAGE}&per_page=${what === "a webhook's addresses" ? 10_000 : 500}`);
      expect({ what, status: last.status, data: last.body.data }).toEqual({ what, status: 200, data: [] });
      expect(last.body.meta).toMatchObject({ current_page: WEBHOOK_MAX_PAGE, last_page: 1 });
      expect({ what, status: (await get(edge, `${path}?page=${WEBHOOK_MAX_PAGE + 1}`)).status }).toEqual({ what, status: 422 });
    }
  });

  it("0, negative, fractional and exponent forms stay 422 (per_page too)", async ({ edge, webhookId }) => {
    for (const query of ["page=0", "page=-1", "page=1.5", "page=1e3", "per_page=0", "per_page=501", "per_page=1e2"]) {
      const answer = await get(edge, `/api/v1/webhooks/${webhookId}/deliveries?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 422 });
      expect(Object.keys(answer.body.errors as object)).toEqual([query.split("=")[0]]);
    }
  });
});

describe("ids in a body", () => {
  it("an xpub id past the exact integers is a 422 naming it", async ({ edge, webhookId }) => {
    const response = await fetch(`${edge.url}/api/v1/webhooks/${webhookId}`, {
      method: "PUT",
      headers: { ...edge.headersFor(alice.accountId), "content-type": "application/json", accept: "application/json" },
      body: `{"xpub_ids": [1, 100000000000000000000]}`,
    });
    // zod's int() takes exact (safe) integers only.
    const notInteger = "Each xpub id must be an integer.";
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 422,
      body: { message: notInteger, errors: { "xpub_ids.1": [notInteger] } },
    });
  });
});

describe("ids in the path", () => {
  it("a webhook or delivery id past the largest exact integer is a 404, like any unknown id", async ({ edge, webhookId }) => {
    const huge = "99999999999999999999";
    expect((await get(edge, `/api/v1/webhooks/${huge}`)).status).toBe(404);
    expect((await get(edge, `/api/v1/webhooks/${huge}/addresses`)).status).toBe(404);
    const retry = await fetch(`${edge.url}/api/v1/webhooks/${webhookId}/deliveries/${huge}/retry`, {
      method: "POST",
      headers: { ...edge.headersFor(alice.accountId), accept: "application/json" },
    });
    expect({ status: retry.status, body: await retry.json() }).toEqual({
      status: 404,
      body: { message: `No delivery with id ${huge} was found.` },
    });
  });
});
