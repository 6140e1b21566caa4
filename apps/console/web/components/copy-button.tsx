/** Copies a value to the clipboard and says so (for keys and secrets shown once). */
import { useState } from "preact/hooks";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | undefined>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // No clipboard permission (an http origin, a locked-down browser): the value stays selectable.
      setCopied("no");
    }
  }
  return (
    <span class="copy">
      <button type="button" onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span role="status" class="copy-status">
        {copied === "yes" ? "Copied." : copied === "no" ? "Copy failed: select the text and copy it." : ""}
      </span>
    </span>
  );
}

/** A secret in a read-only field (selectable whole), with its copy button. */
export function SecretField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div class="field secret">
      <label for={id}>{label}</label>
      <div class="secret-row">
        <input
          id={id}
          type="text"
          readOnly
          value={value}
          spellcheck={false}
          autocomplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
