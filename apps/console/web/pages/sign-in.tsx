/**
 * Sign-in with an API key (checked by listing the account's keys) or, for operators, with the
 * gateway's operator token. Either is kept in this tab's session only.
 */
import { useState } from "preact/hooks";
import { api, ApiError, unwrap } from "../api.ts";
import { ErrorMessage } from "../components/feedback.tsx";
import { session } from "../session.ts";

export function SignIn({ onSignedIn, reason }: { onSignedIn(mode: "account" | "operator"): void; reason: string | undefined }) {
  const [key, setKey] = useState("");
  const [token, setToken] = useState("");
  const [error, setError] = useState<ApiError>();
  const [operatorError, setOperatorError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  // Why the last session ended: shown until the next attempt.
  const [showReason, setShowReason] = useState(true);

  /** Stores the credential, proves it with one call, and keeps it only if the call succeeds. */
  async function attempt(event: Event, mode: "account" | "operator") {
    event.preventDefault();
    setShowReason(false);
    const setFailure = mode === "account" ? setError : setOperatorError;
    setBusy(true);
    if (mode === "account") session.signIn(key.trim());
    else session.signInOperator(token.trim());
    try {
      await (mode === "account" ? unwrap(api.GET("/api/v1/keys")) : unwrap(api.GET("/api/v1/operator/accounts")));
      setFailure(undefined);
      onSignedIn(mode);
    } catch (failure) {
      session.signOut();
      const error = failure as ApiError;
      setFailure(
        mode === "operator" && error.status === 404
          ? new ApiError(404, "Operator mode is off on this gateway (CONSOLE_OPERATOR_TOKEN is not set).")
          : error,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <h1>Sign in to the chaingate console</h1>
      {reason && showReason && (
        <p class="error" role="alert">
          {reason}
        </p>
      )}
      <form onSubmit={(event) => void attempt(event, "account")} class="card">
        <h2>With an API key</h2>
        <p class="hint">The key stays in this browser tab only (session storage) and is sent in a request header, never in an address.</p>
        <div class="field">
          <label for="api-key">API key</label>
          <input
            id="api-key"
            name="api-key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            required
            minLength={40}
            maxLength={40}
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </div>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <form onSubmit={(event) => void attempt(event, "operator")} class="card">
        <h2>Operator</h2>
        <p class="hint">Accounts and keys of everyone, with the gateway's operator token (CONSOLE_OPERATOR_TOKEN).</p>
        <div class="field">
          <label for="operator-token">Operator token</label>
          <input
            id="operator-token"
            name="operator-token"
            type="password"
            autocomplete="off"
            spellcheck={false}
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </div>
        <ErrorMessage error={operatorError} />
        <button type="submit" disabled={busy}>
          Sign in as operator
        </button>
      </form>
    </main>
  );
}
