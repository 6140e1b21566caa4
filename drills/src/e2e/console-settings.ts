/** The console drill's edit of a webhook: pasted addresses added and removed, then its settings saved and read back. */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ETH_ADDRESSES, eventually } from "./console-stack.ts";

/** On the webhook page the drill is on (two of ETH_ADDRESSES listed). */
export async function editAddressesAndSettings(page: Page): Promise<void> {
  await page.getByLabel(/^Addresses to add or remove/).fill(`${ETH_ADDRESSES[2]}, ${ETH_ADDRESSES[0]}`);
  await page.getByRole("button", { name: "Add 2 addresses" }).click();
  await page.getByRole("heading", { name: "Addresses (3)" }).waitFor();
  await page.getByLabel(/^Addresses to add or remove/).fill(ETH_ADDRESSES[1]!);
  await page.getByRole("button", { name: "Remove 1 address" }).click();
  await page.getByRole("heading", { name: "Addresses (2)" }).waitFor();
  await page.getByLabel("Confirmations", { exact: true }).fill("3");
  await page.getByLabel("Heartbeat every T seconds (empty: none)").fill("300");
  await page.getByLabel("Active (notifications are sent)").uncheck();
  await page.getByLabel(/^Pending events/).check();
  await page.getByLabel(/^Every ERC-20 token/).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByText("Settings saved.").waitFor();
  await page.reload();
  await eventually(() => page.getByLabel("Confirmations", { exact: true }).inputValue()).toBe("3");
  expect(await page.getByLabel("Heartbeat every T seconds (empty: none)").inputValue()).toBe("300");
  expect(await page.getByLabel("Heartbeat every N blocks (empty: none)").inputValue()).toBe("");
  expect(await page.getByLabel("Active (notifications are sent)").isChecked()).toBe(false);
  expect(await page.getByLabel(/^Pending events/).isChecked()).toBe(true);
  expect(await page.getByLabel(/^Every ERC-20 token/).isChecked()).toBe(true);
}
