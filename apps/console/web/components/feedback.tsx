/** Messages the user must notice: errors (role=alert) and quiet confirmations (role=status). */
import type { ApiError } from "../api.ts";

export function ErrorMessage({ error }: { error: ApiError | Error | undefined }) {
  if (!error) return null;
  const fields = "fieldErrors" in error ? Object.entries(error.fieldErrors) : [];
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {fields.length > 1 && (
        <ul>
          {fields.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join(" ")}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Notice({ children }: { children: preact.ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}
