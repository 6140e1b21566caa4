/**
 * What the console drill runs against: a fresh build of the console served by the real gateway, with
 * delivery and xpub over the file's database and bus (its fixtures), a webhook receiver on loopback (one path that
 * answers 500 while the endpoint is down), an account with its key, and headless Chromium whose pages
 * record every URL they request and every problem they report.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startLocalReceiver, startTestDelivery, type LocalReceiver } from "@chaingate/delivery/testing";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import type { TestBus, TestDatabase } from "@chaingate/testing";
import { startTestXpub } from "@chaingate/xpub/testing";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { drillTest } from "../testing/drill-fixtures.ts";

/** The console package, built here as the images build it. */
export const CONSOLE_PACKAGE_DIR = fileURLToPath(new URL("../../../apps/console/", import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL("../../../.tmp/console/", import.meta.url));
/** Debian's package; no browser is downloaded (CHROMIUM_PATH points elsewhere if needed). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** An EVM chain the deployment adds (EVM_CHAINS): the console offers it beside the built-in coins. */
const CONSOLE_EVM_CHAINS = JSON.stringify([{ name: "polygon" }]);
export const OPERATOR_TOKEN = randomBytes(24).toString("hex");
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const RECEIVER_PATH = "/console-hook";
/** A receiver path that answers 500 while `endpointDown` is true. */
export const FAILING_PATH = "/console-hook-down";
export const ETH_ADDRESSES = ["0x" + "1a".repeat(20), "0x" + "2b".repeat(20), "0x" + "3c".repeat(20)];
export const DELIVERED_TIMEOUT_MS = 20_000;
/** axe-core, injected into the pages to check them against WCAG 2.1 A and AA. */
export const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
export const AXE_RUN = `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
  .then((result) => ({ passed: result.passes.length, violations: result.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")) }))`;

export interface ConsoleStack {
  gateway: Awaited<ReturnType<typeof startTestGateway>>;
  receiver: LocalReceiver;
  browser: Browser;
  account: { accountId: number; key: string };
  /** The file's bus, which the delivery service reads `transfer.matched` from. */
  bus: TestBus;
  /** Every URL the browser requested and every problem its pages reported, over the whole file. */
  requestedUrls: string[];
  pageProblems: string[];
  /** Whether FAILING_PATH answers 500. */
  endpointDown: boolean;
  close(): Promise<void>;
}

/** Builds the console and starts the services over `database` and `bus`, the receiver and the browser. */
export async function startConsoleStack(database: TestDatabase, bus: TestBus): Promise<ConsoleStack> {
  let consoleDir: string | undefined;
  let delivery: Awaited<ReturnType<typeof startTestDelivery>> | undefined;
  let xpub: Awaited<ReturnType<typeof startTestXpub>> | undefined;
  const stack = { requestedUrls: [] as string[], pageProblems: [] as string[], endpointDown: true, bus } as ConsoleStack;
  stack.close = async () => {
    await stack.browser?.close();
    await stack.gateway?.close();
    await xpub?.close();
    await delivery?.close();
    await stack.receiver?.close();
    if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
  };
  try {
    // A fresh build of the console, as the test command and the images make it.
    consoleDir = mkdtempSync(path.join(tmpdir(), "chaingate-console-"));
    await promisify(execFile)(
      path.join(CONSOLE_PACKAGE_DIR, "node_modules/.bin/vite"),
      ["build", "--outDir", consoleDir, "--emptyOutDir", "--logLevel", "warn"],
      { cwd: CONSOLE_PACKAGE_DIR },
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
    stack.receiver = await startLocalReceiver();
    stack.receiver.on(FAILING_PATH, (_request, response) => {
      response.statusCode = stack.endpointDown ? 500 : 200;
      response.end(stack.endpointDown ? "down for maintenance" : "ok");
    });
    delivery = await startTestDelivery(database.connectionString, {
      ...bus.env,
      WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      DELIVERY_RETRY_SCALE: "0.0001",
      EVM_CHAINS: CONSOLE_EVM_CHAINS,
    });
    xpub = await startTestXpub(database.connectionString, { EVM_CHAINS: CONSOLE_EVM_CHAINS });
    stack.gateway = await startTestGateway(
      {
        DELIVERY_URL: delivery.url,
        XPUB_URL: xpub.url,
        CONSOLE_DIR: consoleDir,
        CONSOLE_OPERATOR_TOKEN: OPERATOR_TOKEN,
        USAGE_FLUSH_INTERVAL_MS: "100",
        EVM_CHAINS: CONSOLE_EVM_CHAINS,
      },
      database.connectionString,
    );
    stack.account = await createAccountWithKey(database.connectionString, "console user");
    stack.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
    });
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}

export async function newPage(stack: ConsoleStack, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  page.on("request", (request) => stack.requestedUrls.push(request.url()));
  page.on("pageerror", (error) => stack.pageProblems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    // A refused request logs "Failed to load resource"; anything else at error level is a fault.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      stack.pageProblems.push(`console: ${message.text()}`);
  });
  return { context, page };
}

/** expect.poll with room for a loaded machine (its default gives up after one second). */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** Evaluates `expression` in the page (a string: this file is type-checked without the DOM's types). */
export const inPage = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

export const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

export async function signIn(stack: ConsoleStack, page: Page, key: string): Promise<void> {
  await page.goto(`${stack.gateway.url}/console`);
  await page.getByLabel("API key", { exact: true }).fill(key);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The test events the receiver got at RECEIVER_PATH (headers as the verification snippet takes them). */
export const receivedTestEvents = (stack: ConsoleStack) =>
  stack.receiver.received.filter((request) => request.path === RECEIVER_PATH && JSON.parse(request.body).type === "test");

/** The console's fixtures: the stack over the file's database and bus, and the desktop pass's page. */
export const consoleTest = drillTest.extend<{
  /** The console built and served by the gateway over the file's database and bus, with the browser. */
  consoleStack: ConsoleStack;
  /** The desktop pass's page: one page for its tests, in order. */
  desktopPage: Page;
}>({
  consoleStack: [
    async ({ database, bus }, use) => {
      const stack = await startConsoleStack(database, bus);
      try {
        await use(stack);
      } finally {
        await stack.close();
      }
    },
    { scope: "file" },
  ],
  desktopPage: [
    async ({ consoleStack }, use) => {
      const { context, page } = await newPage(consoleStack);
      try {
        await use(page);
      } finally {
        await context.close();
      }
    },
    { scope: "file" },
  ],
});
