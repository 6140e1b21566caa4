/** The usage answer as a day-by-group table: every day of the window (days without requests are zero). */

/** `GET /api/v1/usage`'s answer (the parts the table needs). */
export interface UsageAnswer {
  data: Array<{ day: string; endpoint_group: string; request_count: number }>;
  meta: { from: string; to: string };
}

export interface DailyUsage {
  /** Every UTC day from `meta.from` to `meta.to`, in order. */
  days: string[];
  /** Every endpoint group seen, sorted. */
  groups: string[];
  /** counts[day][group]; absent when zero. */
  counts: Record<string, Record<string, number>>;
}

const DAY_MS = 86_400_000;

export function tabulate(usage: UsageAnswer): DailyUsage {
  const days: string[] = [];
  for (let day = Date.parse(`${usage.meta.from}T00:00:00Z`); new Date(day).toISOString().slice(0, 10) <= usage.meta.to; day += DAY_MS) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  const groups = [...new Set(usage.data.map((row) => row.endpoint_group))].sort();
  const counts: DailyUsage["counts"] = {};
  for (const row of usage.data) (counts[row.day] ??= {})[row.endpoint_group] = row.request_count;
  return { days, groups, counts };
}
