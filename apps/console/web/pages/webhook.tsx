/**
 * One webhook: its settings (edit, delete), its secret (rotate, verification snippet), its
 * addresses (paste a list to add or remove), a test event, its delivery log and its events by sequence.
 */
import { useEffect, useState } from "preact/hooks";
import { api, type ApiError, type Schemas, unwrap } from "../api.ts";
import { SecretField } from "../components/copy-button.tsx";
import { DeliveryLog } from "../components/delivery-log.tsx";
import { EventHistory } from "../components/event-history.tsx";
import { ErrorMessage, Notice } from "../components/feedback.tsx";
import { formatTime, parseAddressList } from "../format.ts";
import { navigate } from "../router.ts";
import { SNIPPETS } from "../snippets.ts";
import { useLoad } from "../use-load.ts";

/** A webhook as its endpoints answer it (the always-null members left out by the typed client). */
type Webhook = Omit<Schemas["Webhook"], "last_triggered_at" | "deleted_at">;

/** Addresses listed on the page; a webhook may watch a million. */
const SHOWN_ADDRESSES = 200;

export function WebhookPage({ id }: { id: number }) {
  const webhook = useLoad(
    async () => (await unwrap(api.GET("/api/v1/webhooks/{webhook}", { params: { path: { webhook: id } } }))).data,
    [id],
  );
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const [deliveriesChanged, setDeliveriesChanged] = useState(0);

  /** Runs one action, then says what it did (or why it failed) and reloads the webhook. */
  async function act(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      setError(undefined);
      setNotice(done);
      await webhook.reload();
    } catch (failure) {
      setNotice(undefined);
      setError(failure as ApiError);
    }
  }
  const path = { params: { path: { webhook: id } } };

  if (!webhook.data) {
    return (
      <>
        <h1 tabIndex={-1}>Webhook {id}</h1>
        <ErrorMessage error={webhook.error} />
      </>
    );
  }
  const data = webhook.data;
  return (
    <>
      <h1 tabIndex={-1}>
        Webhook {id} <span class="subtitle">{data.coin}</span>
      </h1>
      <p>
        <a href="#/webhooks">All webhooks</a>
      </p>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error} />
      <SettingsForm
        webhook={data}
        onSave={(body) => act(() => unwrap(api.PUT("/api/v1/webhooks/{webhook}", { ...path, body })), "Settings saved.")}
      />

      <section class="card" aria-labelledby="secret-heading">
        <h2 id="secret-heading">Signing secret</h2>
        <SecretField id="webhook-secret" label="Signing secret" value={data.secret} />
        <button
          type="button"
          onClick={() =>
            void act(
              () => unwrap(api.POST("/api/v1/webhooks/{webhook}/secret", path)),
              "The secret is rotated: deliveries are signed with the new one, and with the old one too for the overlap period (24 hours unless the operator changed it).",
            )
          }
        >
          Rotate secret
        </button>
        <Snippet secret={data.secret} />
      </section>

      <section class="card" aria-labelledby="test-heading">
        <h2 id="test-heading">Test event</h2>
        <p class="hint">
          Queues a signed <code>test</code> notification to {data.webhook_url}; it appears in the delivery log below.
        </p>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              await unwrap(api.POST("/api/v1/webhooks/{webhook}/test", path));
              setDeliveriesChanged((n) => n + 1);
            }, "Test event queued.")
          }
        >
          Send test event
        </button>
      </section>

      <DeliveryLog webhookId={id} refreshToken={deliveriesChanged} />

      <EventHistory webhookId={id} newestSequence={data.last_sequence} />

      <Addresses
        webhook={data}
        onAdd={(addresses) =>
          act(
            async () => unwrap(api.POST("/api/v1/webhooks/{webhook}/addresses", { ...path, body: { addresses } })),
            `Added: the webhook watches the addresses sent.`,
          )
        }
        onRemove={(addresses) =>
          act(
            async () => unwrap(api.DELETE("/api/v1/webhooks/{webhook}/addresses", { ...path, body: { addresses } })),
            `Removed from the webhook's list.`,
          )
        }
      />

      <DeleteWebhook
        id={id}
        onDelete={() =>
          act(async () => (await unwrap(api.DELETE("/api/v1/webhooks/{webhook}", path)), navigate({ page: "webhooks" })), "Deleted.")
        }
      />
    </>
  );
}

function SettingsForm({ webhook, onSave }: { webhook: Webhook; onSave(body: Schemas["UpdateWebhookRequest"]): Promise<void> }) {
  const [url, setUrl] = useState(webhook.webhook_url);
  const [active, setActive] = useState(Boolean(webhook.is_active));
  const [confirmations, setConfirmations] = useState(String(webhook.confirmations));
  const [heartbeatBlocks, setHeartbeatBlocks] = useState(String(webhook.heartbeat_blocks ?? ""));
  const [heartbeatSeconds, setHeartbeatSeconds] = useState(String(webhook.heartbeat_seconds ?? ""));
  const [pending, setPending] = useState(Boolean(webhook.pending));
  const [allTokens, setAllTokens] = useState(Boolean(webhook.all_tokens));
  // Tron nodes have no public mempool: the registry refuses `pending` there.
  const mempool = webhook.coin !== "TRX";
  // Every chain but Bitcoin and Tron is an EVM chain (Ethereum, EVM_CHAINS): only these have ERC-20 logs.
  const erc20 = webhook.coin !== "TRX" && webhook.coin !== "BTC";
  useEffect(() => {
    setUrl(webhook.webhook_url);
    setActive(Boolean(webhook.is_active));
    setConfirmations(String(webhook.confirmations));
    setHeartbeatBlocks(String(webhook.heartbeat_blocks ?? ""));
    setHeartbeatSeconds(String(webhook.heartbeat_seconds ?? ""));
    setPending(Boolean(webhook.pending));
    setAllTokens(Boolean(webhook.all_tokens));
  }, [webhook]);
  // An empty heartbeat field turns that heartbeat off.
  const orNull = (text: string) => (text.trim() === "" ? null : Number(text));
  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave({
          webhook_url: url.trim(),
          is_active: active,
          confirmations: Number(confirmations),
          heartbeat_blocks: orNull(heartbeatBlocks),
          heartbeat_seconds: orNull(heartbeatSeconds),
          ...(mempool ? { pending } : {}),
          ...(erc20 ? { all_tokens: allTokens } : {}),
        });
      }}
    >
      <h2>Settings</h2>
      <p class="hint">
        Created {formatTime(webhook.created_at)}, updated {formatTime(webhook.updated_at)}.
      </p>
      <div class="field">
        <label for="edit-url">Webhook URL</label>
        <input id="edit-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </div>
      <NumberField id="edit-confirmations" label="Confirmations" min={1} required value={confirmations} onInput={setConfirmations} />
      <NumberField
        id="edit-heartbeat-blocks"
        label="Heartbeat every N blocks (empty: none)"
        min={1}
        max={10000}
        value={heartbeatBlocks}
        onInput={setHeartbeatBlocks}
      />
      <NumberField
        id="edit-heartbeat-seconds"
        label="Heartbeat every T seconds (empty: none)"
        min={10}
        max={86400}
        value={heartbeatSeconds}
        onInput={setHeartbeatSeconds}
      />
      {mempool && (
        <div class="field checkbox">
          <input id="edit-pending" type="checkbox" checked={pending} onChange={(e) => setPending(e.currentTarget.checked)} />
          <label for="edit-pending">Pending events (payments seen in the mempool, before their block)</label>
        </div>
      )}
      {erc20 && (
        <div class="field checkbox">
          <input id="edit-all-tokens" type="checkbox" checked={allTokens} onChange={(e) => setAllTokens(e.currentTarget.checked)} />
          <label for="edit-all-tokens">
            Every ERC-20 token, listed or not (an unlisted token is named by its contract: spam tokens arrive too)
          </label>
        </div>
      )}
      <div class="field checkbox">
        <input id="edit-active" type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        <label for="edit-active">Active (notifications are sent)</label>
      </div>
      <button type="submit">Save settings</button>
    </form>
  );
}

interface NumberFieldProps {
  id: string;
  label: string;
  min: number;
  max?: number;
  required?: boolean;
  value: string;
  onInput(value: string): void;
}

function NumberField({ id, label, min, max, required, value, onInput }: NumberFieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="number" min={min} max={max} required={required} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </div>
  );
}

function Snippet({ secret }: { secret: string }) {
  const [chosen, setChosen] = useState(SNIPPETS[0]!.id);
  const snippet = SNIPPETS.find((s) => s.id === chosen)!;
  return (
    <div class="snippet">
      <h3>Verify deliveries</h3>
      <div class="field">
        <label for="snippet-choice">Verification snippet</label>
        <select id="snippet-choice" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
          {SNIPPETS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      <pre class="code" tabIndex={0} aria-label="Verification code">
        {snippet.code}
        {"\n// With this webhook's secret, on the raw request body:\n"}
        {snippet.call(secret)}
      </pre>
    </div>
  );
}

function Addresses({
  webhook,
  onAdd,
  onRemove,
}: {
  webhook: Webhook;
  onAdd(addresses: string[]): Promise<void>;
  onRemove(addresses: string[]): Promise<void>;
}) {
  const [text, setText] = useState("");
  const pasted = parseAddressList(text);
  const run = (action: (addresses: string[]) => Promise<void>) => void action(pasted).then(() => setText(""));
  return (
    <section class="card" aria-labelledby="addresses-heading">
      <h2 id="addresses-heading">Addresses ({webhook.address_count})</h2>
      <ul class="addresses">
        {webhook.addresses.slice(0, SHOWN_ADDRESSES).map((address) => (
          <li key={address}>
            <code>{address}</code>
          </li>
        ))}
      </ul>
      {webhook.addresses.length > SHOWN_ADDRESSES && <p class="hint">The first {SHOWN_ADDRESSES} are shown.</p>}
      <div class="field">
        <label for="address-list">Addresses to add or remove (paste a list: one per line, or separated by commas or spaces)</label>
        <textarea id="address-list" rows={4} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </div>
      <div class="toolbar">
        <button type="button" disabled={pasted.length === 0} onClick={() => run(onAdd)}>
          Add {pasted.length || ""} {pasted.length === 1 ? "address" : "addresses"}
        </button>
        <button type="button" disabled={pasted.length === 0} onClick={() => run(onRemove)}>
          Remove {pasted.length || ""} {pasted.length === 1 ? "address" : "addresses"}
        </button>
      </div>
    </section>
  );
}

function DeleteWebhook({ id, onDelete }: { id: number; onDelete(): Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section class="card danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete</h2>
      {confirming ? (
        <div role="group" aria-label="Confirm deleting the webhook">
          <p class="warning">The webhook is never notified again, and cannot be restored.</p>
          <button type="button" class="danger" onClick={() => void onDelete()}>
            Delete webhook {id}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Delete webhook…
        </button>
      )}
    </section>
  );
}
