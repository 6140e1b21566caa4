/** Previous/next over a paged listing (`meta` of the API's page answers); nothing when there is one page. */
export function Pager({
  label,
  meta,
  onPage,
}: {
  label: string;
  meta: { current_page: number; last_page: number } | undefined;
  onPage(page: number): void;
}) {
  if (!meta || meta.last_page <= 1) return null;
  const page = meta.current_page;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {meta.last_page}
      </span>
      <button type="button" disabled={page >= meta.last_page} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
