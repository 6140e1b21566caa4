/** The account's API keys: list, create (shown once), deactivate. */
import { useState } from "preact/hooks";
import { api, type ApiError, type Schemas, unwrap } from "../api.ts";
import { SecretField } from "../components/copy-button.tsx";
import { ErrorMessage, Notice } from "../components/feedback.tsx";
import { KeyTable } from "../components/key-table.tsx";
import { useLoad } from "../use-load.ts";

export function KeysPage({ onOwnKeyDeactivated }: { onOwnKeyDeactivated(): void }) {
  // One page of the largest size: QUOTA_API_KEYS_PER_ACCOUNT (100 by default) active keys fit in it.
  const keys = useLoad(async () => (await unwrap(api.GET("/api/v1/keys", { params: { query: { per_page: 500 } } }))).data);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<Schemas["CreatedApiKey"]>();
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();

  async function create(event: Event) {
    event.preventDefault();
    try {
      const { data } = await unwrap(api.POST("/api/v1/keys", { body: name.trim() ? { name: name.trim() } : {} }));
      setCreated(data);
      setName("");
      setError(undefined);
      setNotice(undefined);
      await keys.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  async function deactivate(key: Schemas["ApiKey"]) {
    try {
      await unwrap(api.POST("/api/v1/keys/{key}/deactivate", { params: { path: { key: key.id } } }));
      if (key.current) return onOwnKeyDeactivated();
      setNotice(`Key ${key.prefix}… is deactivated.`);
      setError(undefined);
      await keys.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  return (
    <>
      <h1 tabIndex={-1}>API keys</h1>
      <form class="card inline-form" onSubmit={create}>
        <h2>Create a key</h2>
        <div class="field">
          <label for="key-name">Name (optional)</label>
          <input id="key-name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <button type="submit">Create key</button>
      </form>
      {created && (
        <section class="card once" aria-labelledby="created-key-heading">
          <h2 id="created-key-heading">New key {created.prefix}…</h2>
          <p>Copy it now: it is shown this once and cannot be read again.</p>
          <SecretField id="created-key" label="New API key" value={created.key} />
          <button type="button" onClick={() => setCreated(undefined)}>
            I have copied it
          </button>
        </section>
      )}
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? keys.error} />
      {keys.data && <KeyTable keys={keys.data} onDeactivate={deactivate} caption="Keys of this account" />}
    </>
  );
}
