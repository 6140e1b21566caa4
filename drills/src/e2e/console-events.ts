/** The console drill's look at a webhook's events by sequence (issue #30), on the webhook page the drill is on. */
import { publishTransfers, transferFor } from "@chaingate/delivery/testing";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { DELIVERED_TIMEOUT_MS, ETH_ADDRESSES, eventually, shoot, type ConsoleStack } from "./console-stack.ts";

/** Two deposits published as the scanner does are the webhook's events 1 and 2 on its page; a cursor past 1 shows the second alone. */
export async function seeEventsBySequence(stack: ConsoleStack, page: Page): Promise<void> {
  const heading = await page.getByRole("heading", { name: /^Webhook \d+/ }).textContent();
  const id = Number(/Webhook (\d+)/.exec(heading!)![1]);
  // Published as the scanner does: the delivery service numbers them in the webhook's history.
  const deposits = [transferFor(id, "ETH", { to: ETH_ADDRESSES[0]!, watched_address: ETH_ADDRESSES[0]! }), transferFor(id, "ETH")];
  await publishTransfers(stack.bus, deposits);
  await expect
    .poll(async () => (await page.reload(), await page.getByTestId("newest-sequence").textContent()), { timeout: DELIVERED_TIMEOUT_MS })
    .toBe("2");
  const rows = page.getByRole("table", { name: "Events 1 to 2" }).getByRole("row");
  await eventually(() => rows.count()).toBe(3);
  for (const [index, deposit] of deposits.entries())
    expect(await rows.nth(index + 1).textContent()).toMatch(new RegExp(`^${index + 1}transfer${deposit.event_id}`));
  await page.getByLabel("Show events after sequence").fill("1");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await page.getByRole("table", { name: "Events 2 to 2" }).waitFor();
  await shoot(page, "03b-events-by-sequence");
}
