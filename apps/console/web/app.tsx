/**
 * The console: sign-in, then the account's pages (keys, usage, webhooks, watch-only keys) or, with
 * the operator token, the operator's. A refused credential (401) ends the session at once.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { whenUnauthorized } from "./api.ts";
import { KeysPage } from "./pages/keys.tsx";
import { OperatorPage } from "./pages/operator.tsx";
import { SignIn } from "./pages/sign-in.tsx";
import { UsagePage } from "./pages/usage.tsx";
import { WebhookPage } from "./pages/webhook.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { XpubsPage } from "./pages/xpubs.tsx";
import { hrefOf, navigate, useRoute, type Route } from "./router.ts";
import { session } from "./session.ts";

type Mode = "account" | "operator" | undefined;

const currentMode = (): Mode => (session.apiKey() ? "account" : session.operatorToken() ? "operator" : undefined);

const ACCOUNT_PAGES: Array<{ route: Route; title: string }> = [
  { route: { page: "keys" }, title: "API keys" },
  { route: { page: "usage" }, title: "Usage" },
  { route: { page: "webhooks" }, title: "Webhooks" },
  { route: { page: "xpubs" }, title: "Watch-only keys" },
];

export function App() {
  const [mode, setMode] = useState<Mode>(currentMode);
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  const route = useRoute();
  const main = useRef<HTMLElement>(null);

  // A refused credential while signed in ends the session (the sign-in form reports its own refusals).
  useEffect(() => {
    if (!mode) return;
    return whenUnauthorized((error) => {
      session.signOut();
      setSignedOutBecause(`Signed out: ${error.message}`);
      setMode(undefined);
    });
  }, [mode]);
  // A new page: its heading gets the focus (keyboard and screen-reader users start there) and the tab its title.
  useEffect(() => {
    const heading = main.current?.querySelector("h1");
    document.title = `${heading?.textContent ?? "Console"} · chaingate console`;
    heading?.focus();
  }, [route, mode]);

  function signOut(reason?: string) {
    session.signOut();
    setSignedOutBecause(reason);
    setMode(undefined);
  }

  if (!mode) {
    return (
      <SignIn
        reason={signedOutBecause}
        onSignedIn={(signedIn) => {
          setSignedOutBecause(undefined);
          setMode(signedIn);
          navigate(signedIn === "operator" ? { page: "operator" } : { page: "keys" });
        }}
      />
    );
  }
  const pages = mode === "operator" ? [{ route: { page: "operator" } as Route, title: "Accounts" }] : ACCOUNT_PAGES;
  const shown: Route = mode === "operator" ? { page: "operator" } : route.page === "operator" ? { page: "keys" } : route;
  const activePage = shown.page === "webhook" ? "webhooks" : shown.page;
  return (
    <>
      <a class="skip-link" href="#main" onClick={(event) => (event.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">chaingate console{mode === "operator" && <span class="badge">operator</span>}</span>
        <nav aria-label="Console">
          <ul>
            {pages.map((page) => (
              <li key={page.route.page}>
                <a href={hrefOf(page.route)} aria-current={activePage === page.route.page ? "page" : undefined}>
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {shown.page === "keys" && (
          <KeysPage onOwnKeyDeactivated={() => signOut("Signed out: the key you signed in with is deactivated.")} />
        )}
        {shown.page === "usage" && <UsagePage />}
        {shown.page === "webhooks" && <WebhooksPage />}
        {shown.page === "webhook" && <WebhookPage key={shown.id} id={shown.id} />}
        {shown.page === "xpubs" && <XpubsPage />}
        {shown.page === "operator" && <OperatorPage />}
      </main>
    </>
  );
}
