/**
 * A listing as an accessible table: a caption, one header cell per column (a column named only
 * for screen readers, such as "Actions", is visually hidden), one row per item, and a row saying
 * the listing is empty when it is. Pages give the cells; the table's frame is written once here.
 */
import type { ComponentChildren } from "preact";

/** A column's header; `{ hidden }` is read to screen readers but not shown (an actions column). */
export type Column = string | { hidden: string };

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  renderCells,
  empty,
}: {
  caption: ComponentChildren;
  columns: Column[];
  rows: readonly T[];
  rowKey(row: T): string | number;
  /** The row's cells (`<td>`s), in the order of `columns`. */
  renderCells(row: T): ComponentChildren;
  /** Shown in one row spanning every column when `rows` is empty; nothing when left out. */
  empty?: string;
}) {
  return (
    <div class="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === "string" ? (
                <th scope="col" key={column}>
                  {column}
                </th>
              ) : (
                <th scope="col" key={column.hidden}>
                  <span class="visually-hidden">{column.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty !== undefined && (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={rowKey(row)}>{renderCells(row)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
