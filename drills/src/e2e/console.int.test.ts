/**
 * The console in a real browser (Debian's headless Chromium through playwright-core) against the
 * real gateway, delivery and xpub services over Postgres and NATS, with a webhook receiver on
 * loopback (console-stack.ts): sign in, create a key, create a webhook, send a test event and see it
 * delivered in the log, rotate the secret, deactivate the key and be refused; a phone-width pass and
 * a keyboard-only sign-in. Screenshots of each page go to .tmp/console/*.png.
 */
import path from "node:path";
import { verifyChaingateSignature } from "@chaingate/delivery/examples/verify-spec-signature";
import { BIP84_VECTORS as vectors, freshEvmAccountKey } from "@chaingate/xpub/testing";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import {
  AXE_RUN,
  AXE_SCRIPT,
  DELIVERED_TIMEOUT_MS,
  DESKTOP,
  ETH_ADDRESSES,
  FAILING_PATH,
  OPERATOR_TOKEN,
  PHONE,
  RECEIVER_PATH,
  SCREENSHOTS,
  eventually,
  inPage,
  newPage,
  receivedTestEvents,
  shoot,
  signIn,
  consoleTest,
  type ConsoleStack,
} from "./console-stack.ts";
import { PRODUCT_START_MS } from "../testing/drill-fixtures.ts";
import { seeEventsBySequence } from "./console-events.ts";
import { editAddressesAndSettings } from "./console-settings.ts";

const it = consoleTest;
/** Any test may be the first one run (with -t): the console is built and the services start inside it. */
const TIMEOUT = { timeout: 60_000 + PRODUCT_START_MS };

/**
 * Signs in with `newKey`, creates a webhook, sends a test event and sees it delivered, rotates the
 * secret and retries a delivery.
 */
async function createWebhookAndDeliverTestEvents(stack: ConsoleStack, page: Page, newKey: string): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(stack, page, newKey);
  await page.getByRole("link", { name: "Webhooks", exact: true }).click();
  await page.getByRole("heading", { name: "Webhooks" }).waitFor();
  // The deployment's chains, its EVM_CHAINS too (GET /api/v1/chains).
  await eventually(() => page.getByLabel("Coin", { exact: true }).locator("option").allTextContents()).toEqual([
    "BTC (Bitcoin, BTC)",
    "ETH (Ethereum, ETH)",
    "TRX (Tron, TRX)",
    "POLYGON (polygon, POL)",
  ]);
  await page.getByLabel("Coin", { exact: true }).selectOption("ETH");
  await page.getByLabel("Webhook URL", { exact: true }).fill(`${stack.receiver.url}${RECEIVER_PATH}`);
  await page.getByLabel(/^Addresses/).fill(`${ETH_ADDRESSES[0]}\n${ETH_ADDRESSES[1]}`);
  await page.getByRole("button", { name: "Create webhook" }).click();
  await page.getByRole("heading", { name: /^Webhook \d+/ }).waitFor();
  const webhookSecret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(webhookSecret).toMatch(/^whsec_[0-9a-f]+$/);
  // The verification snippet is docs/api.md's, called with this webhook's secret.
  expect(await page.getByLabel("Verification code").textContent()).toContain(`new Webhook(secret).verify(rawBody, headers)`);
  expect(await page.getByLabel("Verification code").textContent()).toContain(JSON.stringify(webhookSecret));

  await page.getByRole("button", { name: "Send test event" }).click();
  await page.locator(".delivery.status-delivered").first().waitFor({ timeout: DELIVERED_TIMEOUT_MS });
  expect(receivedTestEvents(stack)).toHaveLength(1);
  expect(verifyChaingateSignature(webhookSecret, receivedTestEvents(stack)[0]!.headers, receivedTestEvents(stack)[0]!.body)).toBe(true);
  await page
    .getByText(/^Attempts and payload of delivery/)
    .first()
    .click();
  const attempts = page.getByRole("table", { name: "Attempts" }).first();
  await eventually(() => attempts.textContent()).toMatch(/1200\d+ ms/);
  expect(
    await page
      .getByLabel(/^Payload of delivery/)
      .first()
      .textContent(),
  ).toContain('"type": "test"');
  // A test event is not numbered: the events by sequence are still empty, and say so.
  expect(await page.getByTestId("newest-sequence").textContent()).toBe("0");
  await page.getByText("No numbered events after sequence 0.").waitFor();
  await shoot(page, "03-webhook");
  // The picture in docs/design/console.md: the webhook page down to its delivery log.
  await page.screenshot({
    path: path.join(SCREENSHOTS, "readme-console.png"),
    fullPage: true,
    clip: { x: 0, y: 0, width: DESKTOP.width, height: 1880 },
  });

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await eventually(() => page.getByRole("textbox", { name: "Signing secret" }).inputValue()).not.toBe(webhookSecret);
  const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receivedTestEvents(stack).length, { timeout: DELIVERED_TIMEOUT_MS }).toBe(2);
  const second = receivedTestEvents(stack)[1]!;
  expect(verifyChaingateSignature(rotated, second.headers, second.body)).toBe(true);
  expect(verifyChaingateSignature(webhookSecret, second.headers, second.body)).toBe(false);
  await expect.poll(() => page.locator(".delivery.status-delivered").count(), { timeout: DELIVERED_TIMEOUT_MS }).toBe(2);

  await page.getByRole("button", { name: "Retry delivery", exact: false }).first().click();
  await expect.poll(() => receivedTestEvents(stack).length, { timeout: DELIVERED_TIMEOUT_MS }).toBe(3);
}

/** Creates a webhook whose endpoint is down, sees its test event fail, retries it once the endpoint is back, then deletes the webhook. */
async function failRetryAndDeleteWebhook(stack: ConsoleStack, page: Page, newKey: string): Promise<void> {
  await page.getByRole("link", { name: "Webhooks", exact: true }).click();
  await page.getByLabel("Coin", { exact: true }).selectOption("ETH");
  await page.getByLabel("Webhook URL", { exact: true }).fill(`${stack.receiver.url}${FAILING_PATH}`);
  await page.getByLabel(/^Addresses/).fill(ETH_ADDRESSES[2]!);
  await page.getByRole("button", { name: "Create webhook" }).click();
  const heading = page.getByRole("heading", { name: /^Webhook \d+/ });
  await heading.waitFor();
  const id = /Webhook (\d+)/.exec((await heading.textContent())!)![1]!;
  await page.getByRole("button", { name: "Send test event" }).click();
  // Every attempt of the (shortened) retry schedule answered 500: the delivery fails.
  await page.locator(".delivery.status-failed").waitFor({ timeout: 60_000 });
  await page.getByText(/^Attempts and payload of delivery/).click();
  await eventually(() => page.getByRole("table", { name: "Attempts" }).textContent()).toContain("down for maintenance");
  expect(await page.getByRole("table", { name: "Attempts" }).getByRole("row").nth(1).textContent()).toMatch(/^1500\d+ ms/);
  stack.endpointDown = false;
  await page.getByRole("button", { name: /^Retry delivery/ }).click();
  await page.locator(".delivery.status-delivered").waitFor({ timeout: DELIVERED_TIMEOUT_MS });

  await page.getByRole("button", { name: "Delete webhook…" }).click();
  await page.getByRole("button", { name: `Delete webhook ${id}` }).click();
  await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
  await eventually(() => page.getByRole("table").textContent()).not.toContain(`Webhook ${id}`);
  const gone = await fetch(`${stack.gateway.url}/api/v1/webhooks/${id}`, { headers: { "x-api-key": newKey, accept: "application/json" } });
  expect(gone.status).toBe(404);
}

/** Counts three reads of the webhooks with the key and finds them in the usage chart's table. */
async function showUsageChart(stack: ConsoleStack, page: Page, newKey: string): Promise<void> {
  // Requests with X-API-Key are counted; the console's own (Bearer) are not.
  const today = new Date().toISOString().slice(0, 10);
  const countedToday = async () => {
    await stack.gateway.flushUsage();
    const answer = await fetch(`${stack.gateway.url}/api/v1/usage?days=1`, {
      headers: { authorization: `Bearer ${newKey}`, accept: "application/json" },
    });
    const { data } = (await answer.json()) as { data: Array<{ endpoint_group: string; request_count: number }> };
    return data.find((row) => row.endpoint_group === "webhooks")?.request_count ?? 0;
  };
  const before = await countedToday();
  for (let i = 0; i < 3; i++)
    await fetch(`${stack.gateway.url}/api/v1/webhooks`, { headers: { "x-api-key": newKey, accept: "application/json" } });
  expect(await countedToday()).toBe(before + 3);
  await page.getByRole("link", { name: "Usage" }).click();
  await page.getByRole("img", { name: /^Requests per day/ }).waitFor();
  const table = page.getByRole("table", { name: "Requests per day and endpoint group" });
  expect(await table.getByRole("row").nth(1).textContent()).toBe(`${today}${before + 3}`);
  await shoot(page, "04-usage");
}

describe("the console on a desktop (1280 px)", () => {
  let newKey: string;

  it("serves the page under a strict Content-Security-Policy", TIMEOUT, async ({ consoleStack: stack }) => {
    const answer = await fetch(`${stack.gateway.url}/console`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await answer.text())![1]!;
    const script = await fetch(`${stack.gateway.url}${asset}`);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.headers.get("cache-control")).toContain("immutable");
  });

  it("refuses a wrong key at sign-in with the spec's message", TIMEOUT, async ({ consoleStack: stack, desktopPage: page }) => {
    await signIn(stack, page, "x".repeat(40));
    await eventually(() => page.getByRole("alert").textContent()).toContain("The API key is invalid or inactive.");
    await shoot(page, "01-sign-in");
  });

  it(
    "signs in with the account's key and creates a key, shown once with a copy button",
    TIMEOUT,
    async ({ consoleStack: stack, desktopPage: page }) => {
      await page.getByLabel("API key", { exact: true }).fill(stack.account.key);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "API keys" }).waitFor();
      await page.getByLabel("Name (optional)", { exact: true }).fill("console test");
      await page.getByRole("button", { name: "Create key" }).click();
      const shown = page.getByLabel("New API key", { exact: true });
      await shown.waitFor();
      newKey = await shown.inputValue();
      expect(newKey).toMatch(/^[A-Za-z0-9]{40}$/);
      await page.getByRole("button", { name: "Copy new api key" }).click();
      await page.getByText("Copied.").waitFor();
      expect(await inPage<string>(page, "navigator.clipboard.readText()")).toBe(newKey);
      await eventually(() => page.getByRole("table").textContent()).toContain(newKey.slice(0, 8));
      await shoot(page, "02-keys");
      await page.getByRole("button", { name: "I have copied it" }).click();
      expect(await page.getByLabel("New API key", { exact: true }).count()).toBe(0);
    },
  );

  it(
    "signs in with the new key: a webhook, a test event delivered in the log, the secret rotated, two deposits as events 1 and 2",
    { timeout: 90_000 + PRODUCT_START_MS },
    async ({ consoleStack: stack, desktopPage: page }) => {
      await createWebhookAndDeliverTestEvents(stack, page, newKey);
      await seeEventsBySequence(stack, page);
    },
  );

  it("adds and removes pasted addresses and edits the settings", TIMEOUT, async ({ desktopPage: page }) => editAddressesAndSettings(page));

  it(
    "retries a failed delivery once the endpoint is back, then deletes the webhook",
    { timeout: 90_000 + PRODUCT_START_MS },
    async ({ consoleStack: stack, desktopPage: page }) => {
      await failRetryAndDeleteWebhook(stack, page, newKey);
    },
  );

  it("shows the account's usage of the last 30 days as a chart", TIMEOUT, async ({ consoleStack: stack, desktopPage: page }) => {
    await showUsageChart(stack, page, newKey);
  });

  it("registers a watch-only key, issues an address and browses the issued ones", TIMEOUT, async ({ desktopPage: page }) => {
    const [vector] = vectors.accounts;
    await page.getByRole("link", { name: "Watch-only keys" }).click();
    await page.getByLabel(/^Extended public key/).fill(vector!.zpub);
    await page.getByLabel("Label (optional)", { exact: true }).fill("treasury");
    await page.getByRole("button", { name: "Register key" }).click();
    await page.getByRole("heading", { name: /^Addresses of key/ }).waitFor();
    await page.getByRole("button", { name: "Issue next address" }).click();
    const first = vector!.addresses.find((a) => a.chain === 0 && a.index === 0)!.mainnet;
    await page.getByRole("status").filter({ hasText: first }).waitFor();
    await eventually(() => page.getByRole("table", { name: /^Issued addresses/ }).textContent()).toContain(first);
    expect(await page.getByRole("table", { name: /^Registered Bitcoin keys/ }).textContent()).toContain("treasury");
    await shoot(page, "05-watch-only-keys");
    // A configured EVM chain (EVM_CHAINS) has keys of its own, Ethereum's kind.
    await page.getByRole("tab", { name: "POLYGON" }).click();
    await page.getByLabel(/^Extended public key \(BIP44/).fill(freshEvmAccountKey());
    await page.getByRole("button", { name: "Register key" }).click();
    await page.getByRole("heading", { name: /^Addresses of key/ }).waitFor();
    await page.getByRole("button", { name: "Issue next address" }).click();
    await eventually(() => page.getByRole("table", { name: /^Issued addresses/ }).textContent()).toMatch(/0x[0-9a-fA-F]{40}/);
    expect(await page.getByRole("table", { name: /^Registered POLYGON keys/ }).isVisible()).toBe(true);
  });

  it(
    "deactivates the key it is signed in with after a warning: signed out, and the key is refused",
    TIMEOUT,
    async ({ consoleStack: stack, desktopPage: page }) => {
      await page.getByRole("link", { name: "API keys" }).click();
      await page.getByRole("button", { name: `Deactivate key ${newKey.slice(0, 8)}…` }).click();
      await page.getByText("This is the key you are signed in with").waitFor();
      await page.getByRole("button", { name: `Deactivate ${newKey.slice(0, 8)}` }).click();
      await page.getByRole("heading", { name: "Sign in to the chaingate console" }).waitFor();
      expect(await page.getByRole("alert").allTextContents()).toEqual(["Signed out: the key you signed in with is deactivated."]);
      expect(await inPage<number>(page, "sessionStorage.length")).toBe(0);
      const refused = await fetch(`${stack.gateway.url}/api/v1/keys`, { headers: { "x-api-key": newKey, accept: "application/json" } });
      expect({ status: refused.status, body: await refused.json() }).toEqual({
        status: 401,
        body: { message: "The API key is invalid or inactive." },
      });
      await page.getByLabel("API key", { exact: true }).fill(newKey);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await eventually(() => page.getByRole("alert").textContent()).toContain("The API key is invalid or inactive.");
      await shoot(page, "06-refused");
    },
  );
});

describe("operator mode", () => {
  it("lists accounts and creates one with its first key; a wrong token is refused", TIMEOUT, async ({ consoleStack: stack }) => {
    const { context, page } = await newPage(stack);
    await page.goto(`${stack.gateway.url}/console`);
    await page.getByLabel("Operator token", { exact: true }).fill("wrong");
    await page.getByRole("button", { name: "Sign in as operator" }).click();
    await eventually(() => page.getByRole("alert").textContent()).toContain("The operator token is missing or wrong.");
    await page.getByLabel("Operator token", { exact: true }).fill(OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in as operator" }).click();
    await page.getByRole("heading", { name: "Accounts (operator)" }).waitFor();
    await page.getByLabel("Account name", { exact: true }).fill("new customer");
    await page.getByRole("button", { name: "Create account with its first key" }).click();
    const firstKey = await page.getByLabel("First API key", { exact: true }).inputValue();
    expect((await fetch(`${stack.gateway.url}/api/v1/keys`, { headers: { "x-api-key": firstKey } })).status).toBe(200);
    await eventually(() => page.getByRole("table", { name: "Every account" }).textContent()).toContain("new customer");
    await shoot(page, "07-operator");
    await context.close();
  });
});

describe("on a phone (390 px)", () => {
  it("fits every page to the width", TIMEOUT, async ({ consoleStack: stack }) => {
    const { context, page } = await newPage(stack, PHONE);
    await signIn(stack, page, stack.account.key);
    for (const [link, heading, name] of [
      ["API keys", "API keys", "phone-keys"],
      ["Usage", "Usage, last 30 days", "phone-usage"],
      ["Webhooks", "Webhooks", "phone-webhooks"],
      ["Watch-only keys", "Watch-only keys", "phone-watch-only-keys"],
    ] as const) {
      await page.getByRole("link", { name: link }).click();
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      const overflowing = await inPage<string[]>(
        page,
        `[...document.querySelectorAll("body *")]
          .filter((element) => element.getBoundingClientRect().right > ${PHONE.width} && !element.parentElement?.closest(".table-scroll, pre"))
          .map((element) => element.tagName.toLowerCase() + "." + element.className)`,
      );
      expect(overflowing).toEqual([]);
      expect(await inPage<number>(page, "document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, name);
    }
    await context.close();
  });
});

describe("with the keyboard only", () => {
  it("signs in, reaches a page from the navigation and creates a key", TIMEOUT, async ({ consoleStack: stack }) => {
    const { context, page } = await newPage(stack);
    await page.goto(`${stack.gateway.url}/console`);
    await page.keyboard.press("Tab");
    expect(await inPage<string>(page, "document.activeElement?.id")).toBe("api-key");
    await page.keyboard.type(stack.account.key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    // The new page's heading has the focus; the skip link and navigation come first in tab order.
    expect(await inPage<string>(page, "document.activeElement?.textContent")).toBe("API keys");
    await page.keyboard.press("Shift+Tab");
    const order: string[] = [];
    for (let i = 0; i < 12 && !order.includes("Webhooks"); i++) {
      await page.keyboard.press("Tab");
      order.push((await inPage<string | undefined>(page, "document.activeElement?.textContent?.trim()")) ?? "");
    }
    expect(order).toContain("Webhooks");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await context.close();
  });
});

describe("accessibility", () => {
  it("every page passes axe-core's WCAG 2.1 A and AA rules", TIMEOUT, async ({ consoleStack: stack }) => {
    // A context of its own that lets axe's script in (the CSP forbids injected scripts, rightly).
    const context = await stack.browser.newContext({ viewport: DESKTOP, bypassCSP: true });
    const page = await context.newPage();
    const violations: Record<string, string[]> = {};
    const check = async (name: string) => {
      await page.addScriptTag({ path: AXE_SCRIPT });
      const { passed, violations: found } = await inPage<{ passed: number; violations: string[] }>(page, AXE_RUN);
      // Rules that passed prove axe looked at the page (labels, names, contrast, structure).
      expect(passed, name).toBeGreaterThan(10);
      if (found.length) violations[name] = found;
    };
    await page.goto(`${stack.gateway.url}/console`);
    await check("sign-in");
    await signIn(stack, page, stack.account.key);
    for (const [hash, heading] of [
      ["#/keys", "API keys"],
      ["#/usage", "Usage, last 30 days"],
      ["#/webhooks", "Webhooks"],
      ["#/webhooks/1", "Webhook 1 ETH"],
      ["#/xpubs", "Watch-only keys"],
    ] as const) {
      await page.goto(`${stack.gateway.url}/console${hash}`);
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      await page.waitForLoadState("networkidle");
      await check(hash);
    }
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Operator token", { exact: true }).fill(OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in as operator" }).click();
    await page.getByRole("heading", { name: "Accounts (operator)" }).waitFor();
    await check("operator");
    expect(violations).toEqual({});
    await context.close();
  });
});

describe("what the browser saw", () => {
  it("no API key in any URL, no script error, no CSP violation", TIMEOUT, ({ consoleStack: stack }) => {
    expect(stack.requestedUrls.length).toBeGreaterThan(10);
    expect(stack.requestedUrls.filter((url) => url.includes(stack.account.key))).toEqual([]);
    expect(stack.pageProblems).toEqual([]);
  });
});
