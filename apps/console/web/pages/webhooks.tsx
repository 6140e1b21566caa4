/** The account's webhooks: list and create (addresses pasted as a list). */
import { useState } from "preact/hooks";
import { api, type ApiError, unwrap } from "../api.ts";
import { DataTable } from "../components/data-table.tsx";
import { ErrorMessage } from "../components/feedback.tsx";
import { parseAddressList } from "../format.ts";
import { hrefOf, navigate } from "../router.ts";
import { useLoad } from "../use-load.ts";
import { Pager } from "../components/pager.tsx";

/** Until the deployment's chains are read (GET /api/v1/chains): the built-in ones. */
const BUILT_IN_COINS = ["BTC", "ETH", "TRX"];
const PAGE_SIZE = 100;

export function WebhooksPage() {
  const [page, setPage] = useState(1);
  const webhooks = useLoad(() => unwrap(api.GET("/api/v1/webhooks", { params: { query: { page, per_page: PAGE_SIZE } } })), [page]);
  // The chains this deployment serves: the built-in ones and its EVM_CHAINS (docs/chains.md).
  const chains = useLoad(() => unwrap(api.GET("/api/v1/chains")), []);
  const [coin, setCoin] = useState("BTC");
  const [url, setUrl] = useState("");
  const [addresses, setAddresses] = useState("");
  const [confirmations, setConfirmations] = useState("");
  const [error, setError] = useState<ApiError>();

  async function create(event: Event) {
    event.preventDefault();
    try {
      const { data } = await unwrap(
        api.POST("/api/v1/webhooks", {
          body: {
            coin,
            webhook_url: url.trim(),
            addresses: parseAddressList(addresses),
            ...(confirmations ? { confirmations: Number(confirmations) } : {}),
          },
        }),
      );
      navigate({ page: "webhook", id: data.id });
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  const meta = webhooks.data?.meta;
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      <ErrorMessage error={webhooks.error} />
      {webhooks.data && (
        <DataTable
          caption={`Webhooks of this account${meta && meta.last_page > 1 ? `, page ${meta.current_page} of ${meta.last_page}` : ""}`}
          columns={["Id", "Coin", "URL", "Addresses", "Active"]}
          rows={webhooks.data.data}
          rowKey={(webhook) => webhook.id}
          empty="No webhooks yet."
          renderCells={(webhook) => (
            <>
              <td>
                <a href={hrefOf({ page: "webhook", id: webhook.id })}>Webhook {webhook.id}</a>
              </td>
              <td>{webhook.coin}</td>
              <td class="wrap">{webhook.webhook_url}</td>
              <td>{webhook.address_count}</td>
              <td>{webhook.is_active ? "yes" : "no"}</td>
            </>
          )}
        />
      )}
      <Pager label="Webhook pages" meta={meta} onPage={setPage} />
      <form class="card" onSubmit={create}>
        <h2>Create a webhook</h2>
        <div class="field">
          <label for="webhook-coin">Coin</label>
          <select id="webhook-coin" value={coin} onChange={(e) => setCoin(e.currentTarget.value)}>
            {(chains.data?.data ?? BUILT_IN_COINS.map((c) => ({ coin: c, name: c, native_currency: undefined }))).map((chain) => (
              <option key={chain.coin} value={chain.coin}>
                {chain.native_currency ? `${chain.coin} (${chain.name}, ${chain.native_currency.symbol})` : chain.coin}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="webhook-url">Webhook URL</label>
          <input
            id="webhook-url"
            type="url"
            required
            placeholder="https://example.com/hooks/chaingate"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="webhook-addresses">Addresses (one per line, or separated by commas or spaces)</label>
          <textarea
            id="webhook-addresses"
            rows={4}
            required
            spellcheck={false}
            value={addresses}
            onInput={(e) => setAddresses(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="webhook-confirmations">Confirmations (optional)</label>
          <input
            id="webhook-confirmations"
            type="number"
            min={1}
            inputMode="numeric"
            value={confirmations}
            onInput={(e) => setConfirmations(e.currentTarget.value)}
          />
        </div>
        <ErrorMessage error={error} />
        <button type="submit">Create webhook</button>
      </form>
    </>
  );
}
