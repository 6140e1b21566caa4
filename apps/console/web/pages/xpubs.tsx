/** Watch-only keys per chain: the registered extended public keys, issuing an address, and the issued addresses. */
import { useState } from "preact/hooks";
import { api, type ApiError, unwrap } from "../api.ts";
import { DataTable } from "../components/data-table.tsx";
import { ErrorMessage, Notice } from "../components/feedback.tsx";
import { formatTime } from "../format.ts";
import { useLoad } from "../use-load.ts";
import { Pager } from "../components/pager.tsx";

/** A chain's API prefix: `btc`, `eth`, or a configured EVM chain's name (`polygon`). */
type Chain = string;
interface ChainKeysOf {
  title: string;
  keyHint: string;
}
const EVM_KEY_HINT = "BIP44 account key (m/44'/60'/account') in xpub form";
/** Until the deployment's chains are read (GET /api/v1/chains): the built-in chains with keys. */
const BUILT_IN: Record<Chain, ChainKeysOf> = {
  btc: { title: "Bitcoin", keyHint: "BIP84 account key (m/84'/0'/account') in zpub form" },
  eth: { title: "Ethereum", keyHint: EVM_KEY_HINT },
};
const RECORDS_PER_PAGE = 50;
const ADDRESSES_PER_PAGE = 20;

// Every chain's paths answer the same shapes; the client is typed per path, so one is named here.
const xpubPath = (chain: Chain) => `/api/v1/${chain}/xpub` as "/api/v1/btc/xpub";
const issuePath = (chain: Chain) => `/api/v1/${chain}/xpub/{id}/address` as "/api/v1/btc/xpub/{id}/address";
const historyPath = (chain: Chain) => `/api/v1/${chain}/xpub/{id}/addresses` as "/api/v1/btc/xpub/{id}/addresses";

export function XpubsPage() {
  const [chain, setChain] = useState<Chain>("btc");
  // Bitcoin, Ethereum, and each configured EVM chain (EVM_CHAINS), whose keys are Ethereum's.
  const served = useLoad(() => unwrap(api.GET("/api/v1/chains")), []);
  const chains: Record<Chain, ChainKeysOf> = { ...BUILT_IN };
  for (const entry of served.data?.data ?? [])
    if (entry.kind === "evm" && !(entry.prefix in chains)) chains[entry.prefix] = { title: entry.coin, keyHint: EVM_KEY_HINT };
  return (
    <>
      <h1 tabIndex={-1}>Watch-only keys</h1>
      <div role="tablist" aria-label="Chain" class="tabs">
        {Object.keys(chains).map((c) => (
          <button
            key={c}
            type="button"
            role="tab"
            id={`tab-${c}`}
            aria-selected={chain === c}
            aria-controls="xpub-panel"
            onClick={() => setChain(c)}
          >
            {chains[c]!.title}
          </button>
        ))}
      </div>
      <div id="xpub-panel" role="tabpanel" aria-labelledby={`tab-${chain}`}>
        <ChainKeys key={chain} chain={chain} keys={chains[chain] ?? BUILT_IN.btc!} />
      </div>
    </>
  );
}

function ChainKeys({ chain, keys }: { chain: Chain; keys: ChainKeysOf }) {
  const [page, setPage] = useState(1);
  const records = useLoad(
    () => unwrap(api.GET(xpubPath(chain), { params: { query: { page, per_page: RECORDS_PER_PAGE } } })),
    [chain, page],
  );
  const [xpub, setXpub] = useState("");
  const [label, setLabel] = useState("");
  const [error, setError] = useState<ApiError>();
  const [open, setOpen] = useState<number>();

  async function register(event: Event) {
    event.preventDefault();
    try {
      const record = await unwrap(
        api.POST(xpubPath(chain), { body: { xpub: xpub.trim(), ...(label.trim() ? { label: label.trim() } : {}) } }),
      );
      setXpub("");
      setLabel("");
      setError(undefined);
      setOpen(record.id);
      await records.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  const meta = records.data?.meta;
  return (
    <>
      <ErrorMessage error={records.error} />
      {records.data && (
        <DataTable
          caption={`Registered ${keys.title} keys${meta && meta.last_page > 1 ? `, page ${meta.current_page} of ${meta.last_page}` : ""}`}
          columns={["Id", "Key", "Label", "Issued", "Registered", { hidden: "Actions" }]}
          rows={records.data.data}
          rowKey={(record) => record.id}
          empty={`No ${keys.title} keys registered.`}
          renderCells={(record) => (
            <>
              <td>{record.id}</td>
              <td>
                <code>{record.xpub_preview}</code> <span class="hint">{record.fingerprint}</span>
              </td>
              <td>{record.label ?? "—"}</td>
              <td>{record.issued_count}</td>
              <td>{formatTime(record.created_at)}</td>
              <td>
                <button
                  type="button"
                  aria-expanded={open === record.id}
                  onClick={() => setOpen(open === record.id ? undefined : record.id)}
                >
                  {open === record.id ? "Hide addresses" : "Addresses"}
                  <span class="visually-hidden"> of key {record.id}</span>
                </button>
              </td>
            </>
          )}
        />
      )}
      <Pager label="Key pages" meta={meta} onPage={setPage} />
      {open !== undefined && <IssuedAddresses chain={chain} id={open} onIssued={() => void records.reload()} />}
      <form class="card" onSubmit={register}>
        <h2>Register a {keys.title} key</h2>
        <div class="field">
          <label for="xpub-key">Extended public key ({keys.keyHint})</label>
          <input
            id="xpub-key"
            required
            spellcheck={false}
            autocomplete="off"
            value={xpub}
            onInput={(e) => setXpub(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="xpub-label">Label (optional)</label>
          <input id="xpub-label" maxLength={255} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </div>
        <ErrorMessage error={error} />
        <button type="submit">Register key</button>
      </form>
    </>
  );
}

function IssuedAddresses({ chain, id, onIssued }: { chain: Chain; id: number; onIssued(): void }) {
  const [page, setPage] = useState(1);
  const history = useLoad(
    () => unwrap(api.GET(historyPath(chain), { params: { path: { id }, query: { page, per_page: ADDRESSES_PER_PAGE } } })),
    [chain, id, page],
  );
  const [issued, setIssued] = useState<string>();
  const [error, setError] = useState<ApiError>();

  async function issue() {
    try {
      const address = await unwrap(api.POST(issuePath(chain), { params: { path: { id } } }));
      setIssued(`Issued ${address.address} (index ${address.index}, ${address.path}).`);
      setError(undefined);
      onIssued();
      await history.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  const meta = history.data?.meta;
  return (
    <section class="card" aria-labelledby="issued-heading">
      <h2 id="issued-heading">Addresses of key {id}</h2>
      <button type="button" onClick={() => void issue()}>
        Issue next address
      </button>
      {issued && <Notice>{issued}</Notice>}
      <ErrorMessage error={error ?? history.error} />
      {history.data && (
        <div class="table-scroll">
          <table>
            <caption>Issued addresses{meta ? `, ${meta.total} in all` : ""}</caption>
            <thead>
              <tr>
                <th scope="col">Index</th>
                <th scope="col">Address</th>
                <th scope="col">Issued</th>
              </tr>
            </thead>
            <tbody>
              {history.data.data.map((entry) => (
                <tr key={entry.index}>
                  <td>{entry.index}</td>
                  <td class="wrap">
                    <code>{entry.address}</code>
                  </td>
                  <td>{formatTime(entry.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Address pages" meta={meta} onPage={setPage} />
    </section>
  );
}
