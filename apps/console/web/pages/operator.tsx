/** Operator mode: every account, creating one with its first key, and deactivating any key. */
import { useState } from "preact/hooks";
import { api, type ApiError, type Schemas, unwrap } from "../api.ts";
import { SecretField } from "../components/copy-button.tsx";
import { DataTable } from "../components/data-table.tsx";
import { ErrorMessage, Notice } from "../components/feedback.tsx";
import { KeyTable } from "../components/key-table.tsx";
import { Pager } from "../components/pager.tsx";
import { formatTime } from "../format.ts";
import { useLoad } from "../use-load.ts";

const PAGE_SIZE = 100;

export function OperatorPage() {
  const [page, setPage] = useState(1);
  const accounts = useLoad(
    () => unwrap(api.GET("/api/v1/operator/accounts", { params: { query: { page, per_page: PAGE_SIZE } } })),
    [page],
  );
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ account: Schemas["Account"]; key: Schemas["CreatedApiKey"] }>();
  const [open, setOpen] = useState<number>();
  const [error, setError] = useState<ApiError>();

  async function create(event: Event) {
    event.preventDefault();
    try {
      const { data } = await unwrap(api.POST("/api/v1/operator/accounts", { body: { name: name.trim() } }));
      setCreated(data);
      setName("");
      setError(undefined);
      await accounts.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  return (
    <>
      <h1 tabIndex={-1}>Accounts (operator)</h1>
      <ErrorMessage error={accounts.error} />
      {accounts.data && (
        <DataTable
          caption="Every account"
          columns={["Id", "Name", "Created", "Active keys", { hidden: "Actions" }]}
          rows={accounts.data.data}
          rowKey={(account) => account.id}
          renderCells={(account) => (
            <>
              <td>{account.id}</td>
              <td>{account.name}</td>
              <td>{formatTime(account.created_at)}</td>
              <td>{account.active_keys}</td>
              <td>
                <button
                  type="button"
                  aria-expanded={open === account.id}
                  onClick={() => setOpen(open === account.id ? undefined : account.id)}
                >
                  Keys<span class="visually-hidden"> of account {account.name}</span>
                </button>
              </td>
            </>
          )}
        />
      )}
      <Pager label="Account pages" meta={accounts.data?.meta} onPage={setPage} />
      {open !== undefined && <AccountKeys accountId={open} onChanged={() => void accounts.reload()} />}
      <form class="card" onSubmit={create}>
        <h2>Create an account</h2>
        <div class="field">
          <label for="account-name">Account name</label>
          <input id="account-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <ErrorMessage error={error} />
        <button type="submit">Create account with its first key</button>
      </form>
      {created && (
        <section class="card once" aria-labelledby="operator-created-heading">
          <h2 id="operator-created-heading">
            Account {created.account.name} (id {created.account.id})
          </h2>
          <p>Its first key, shown this once: hand it over now.</p>
          <SecretField id="operator-created-key" label="First API key" value={created.key.key} />
        </section>
      )}
    </>
  );
}

function AccountKeys({ accountId, onChanged }: { accountId: number; onChanged(): void }) {
  const keys = useLoad(
    async () =>
      (
        await unwrap(
          api.GET("/api/v1/operator/accounts/{account}/keys", { params: { path: { account: accountId }, query: { per_page: 500 } } }),
        )
      ).data,
    [accountId],
  );
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  async function deactivate(key: Schemas["ApiKey"]) {
    try {
      await unwrap(api.POST("/api/v1/operator/keys/{key}/deactivate", { params: { path: { key: key.id } } }));
      setNotice(`Key ${key.prefix}… is deactivated.`);
      onChanged();
      await keys.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }
  return (
    <section class="card" aria-label={`Keys of account ${accountId}`}>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? keys.error} />
      {keys.data && <KeyTable keys={keys.data} onDeactivate={deactivate} caption={`Keys of account ${accountId}`} />}
    </section>
  );
}
