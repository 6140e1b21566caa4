/**
 * A webhook's events by sequence (the catch-up cursor, `GET …/events?after=`): the numbered events
 * it was sent, oldest first from a chosen point, with each one's delivery status, so a gap a
 * subscriber reports can be looked up by its numbers.
 */
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { formatTime } from "../format.ts";
import { useLoad } from "../use-load.ts";
import { ErrorMessage } from "./feedback.tsx";

const PAGE = 20;

export function EventHistory({ webhookId, newestSequence }: { webhookId: number; newestSequence: number }) {
  const [after, setAfter] = useState(Math.max(0, newestSequence - PAGE));
  const [typed, setTyped] = useState(String(after));
  const events = useLoad(
    () => unwrap(api.GET("/api/v1/webhooks/{webhook}/events", { params: { path: { webhook: webhookId }, query: { after, limit: PAGE } } })),
    [webhookId, after],
  );
  const page = events.data;
  return (
    <section aria-labelledby="events-heading" class="card">
      <h2 id="events-heading">Events by sequence</h2>
      <p class="hint">
        Newest event sequence: <strong data-testid="newest-sequence">{newestSequence}</strong>
        {page ? `; events from ${page.meta.oldest_sequence} on are kept.` : "."} Test events are not numbered.
      </p>
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          setAfter(Math.max(0, Math.floor(Number(typed)) || 0));
        }}
      >
        <div class="field">
          <label for="events-after">Show events after sequence</label>
          <input id="events-after" type="number" min={0} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        </div>
        <button type="submit">Show</button>
      </form>
      <ErrorMessage error={events.error} />
      {page && page.data.length === 0 && <p>No numbered events after sequence {after}.</p>}
      {page && page.data.length > 0 && (
        <table>
          <caption>
            Events {page.data[0]!.sequence} to {page.meta.next_after}
          </caption>
          <thead>
            <tr>
              <th scope="col">Sequence</th>
              <th scope="col">Type</th>
              <th scope="col">Event id</th>
              <th scope="col">Delivery</th>
              <th scope="col">Stored</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((event) => (
              <tr key={event.sequence}>
                <td>{event.sequence}</td>
                <td>{String((JSON.parse(event.body) as { type?: string }).type ?? "")}</td>
                <td class="wrap">{event.event_id}</td>
                <td>
                  {event.status} (#{event.delivery_id})
                </td>
                <td>{formatTime(event.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page?.meta.has_more && (
        <button type="button" onClick={() => (setAfter(page.meta.next_after), setTyped(String(page.meta.next_after)))}>
          Next events
        </button>
      )}
    </section>
  );
}
