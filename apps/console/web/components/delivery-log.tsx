/**
 * A webhook's delivery log, newest first: status, attempts with response codes and timings, the
 * payload, and a retry. Polls while a delivery is pending, so a test event is seen arriving.
 */
import { useEffect, useState } from "preact/hooks";
import { api, type ApiError, type Schemas, unwrap } from "../api.ts";
import { formatTime } from "../format.ts";
import { useLoad } from "../use-load.ts";
import { Pager } from "./pager.tsx";
import { ErrorMessage, Notice } from "./feedback.tsx";

const PER_PAGE = 20;
const POLL_MS = 1_000;
const STATUSES = ["pending", "delivered", "failed", "skipped", "held"] as const;

export function DeliveryLog({ webhookId, refreshToken }: { webhookId: number; refreshToken: number }) {
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">("");
  const [page, setPage] = useState(1);
  const deliveries = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/webhooks/{webhook}/deliveries", {
          params: { path: { webhook: webhookId }, query: { page, per_page: PER_PAGE, ...(status ? { status } : {}) } },
        }),
      ),
    [webhookId, page, status, refreshToken],
  );
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const pending = deliveries.data?.data.some((delivery) => delivery.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void deliveries.reload(), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.data]);

  async function retry(delivery: Schemas["Delivery"]) {
    try {
      await unwrap(
        api.POST("/api/v1/webhooks/{webhook}/deliveries/{delivery}/retry", {
          params: { path: { webhook: webhookId, delivery: delivery.id } },
        }),
      );
      setNotice(`Delivery ${delivery.id} is queued again.`);
      setError(undefined);
      await deliveries.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  const meta = deliveries.data?.meta;
  return (
    <section aria-labelledby="deliveries-heading" class="card">
      <h2 id="deliveries-heading">Delivery log</h2>
      <div class="toolbar">
        <div class="field">
          <label for="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => (setStatus(e.currentTarget.value as typeof status), setPage(1))}>
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => void deliveries.reload()}>
          Refresh log
        </button>
      </div>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? deliveries.error} />
      {deliveries.data && deliveries.data.data.length === 0 && <p>No deliveries{status ? ` with status ${status}` : ""}.</p>}
      <ol class="deliveries" aria-live="polite">
        {deliveries.data?.data.map((delivery) => (
          <li key={delivery.id} class={`delivery status-${delivery.status}`} data-delivery-id={delivery.id}>
            <div class="delivery-head">
              <strong>
                Delivery {delivery.id}
                {delivery.sequence !== null && ` (event ${delivery.sequence})`}: <span class="delivery-status">{delivery.status}</span>
              </strong>
              <span>
                {String(delivery.payload.type ?? "transfer")} · {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"} ·{" "}
                {formatTime(delivery.created_at)}
              </span>
              {delivery.status !== "pending" && (
                <button type="button" onClick={() => void retry(delivery)} aria-label={`Retry delivery ${delivery.id}`}>
                  Retry
                </button>
              )}
            </div>
            <details>
              <summary>Attempts and payload of delivery {delivery.id}</summary>
              {delivery.attempt_log.length > 0 ? (
                <table>
                  <caption>Attempts</caption>
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">Response</th>
                      <th scope="col">Time</th>
                      <th scope="col">At</th>
                      <th scope="col">Error or answer</th>
                    </tr>
                  </thead>
                  <tbody>
                    {delivery.attempt_log.map((attempt) => (
                      <tr key={attempt.attempt}>
                        <td>{attempt.attempt}</td>
                        <td>{attempt.status_code ?? "no answer"}</td>
                        <td>{attempt.latency_ms} ms</td>
                        <td>{formatTime(attempt.created_at)}</td>
                        <td class="wrap">{[attempt.error, attempt.response_excerpt].filter(Boolean).join(": ")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p>No attempt yet{delivery.next_attempt_at ? `; next at ${formatTime(delivery.next_attempt_at)}` : ""}.</p>
              )}
              <pre class="code" tabIndex={0} aria-label={`Payload of delivery ${delivery.id}`}>
                {JSON.stringify(delivery.payload, null, 2)}
              </pre>
            </details>
          </li>
        ))}
      </ol>
      <Pager label="Delivery pages" meta={meta} onPage={setPage} />
    </section>
  );
}
