/** A table of API keys with a deactivate action that asks first (and warns when it is the key in use). */
import { useState } from "preact/hooks";
import type { Schemas } from "../api.ts";
import { formatTime } from "../format.ts";
import { DataTable } from "./data-table.tsx";

type ApiKey = Schemas["ApiKey"];

export function KeyTable({ keys, onDeactivate, caption }: { keys: ApiKey[]; onDeactivate(key: ApiKey): Promise<void>; caption: string }) {
  const [confirming, setConfirming] = useState<number>();
  return (
    <DataTable
      caption={caption}
      columns={["Prefix", "Name", "Created", "Last used", "Status", { hidden: "Actions" }]}
      rows={keys}
      rowKey={(key) => key.id}
      renderCells={(key) => (
        <>
          <td>
            <code>{key.prefix}…</code>
            {key.current && <span class="badge">this session</span>}
          </td>
          <td>{key.name ?? "—"}</td>
          <td>{formatTime(key.created_at)}</td>
          <td>{key.last_used_on ?? "never"}</td>
          <td>{key.active ? "active" : `deactivated ${formatTime(key.deactivated_at)}`}</td>
          <td class="actions">
            {key.active &&
              (confirming === key.id ? (
                <span role="group" aria-label={`Confirm deactivating key ${key.prefix}`}>
                  <span class="warning">
                    {key.current
                      ? "This is the key you are signed in with: you will be signed out and it stops working. "
                      : "It stops working at once. "}
                  </span>
                  <button type="button" class="danger" onClick={() => void onDeactivate(key).finally(() => setConfirming(undefined))}>
                    Deactivate {key.prefix}
                  </button>
                  <button type="button" onClick={() => setConfirming(undefined)}>
                    Cancel
                  </button>
                </span>
              ) : (
                <button type="button" onClick={() => setConfirming(key.id)} aria-label={`Deactivate key ${key.prefix}…`}>
                  Deactivate…
                </button>
              ))}
          </td>
        </>
      )}
    />
  );
}
