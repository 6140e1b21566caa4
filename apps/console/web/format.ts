/** Dates as people read them in a table: UTC, to the minute. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Addresses pasted as a list: one per line, or separated by commas, spaces or semicolons. */
export function parseAddressList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ];
}
