/** Requests per day and endpoint group over the last 30 days (the X-API-Key path only, as the spec says). */
import { api, unwrap } from "../api.ts";
import { ErrorMessage } from "../components/feedback.tsx";
import { UsageChart } from "../components/usage-chart.tsx";
import { tabulate } from "../usage-table.ts";
import { useLoad } from "../use-load.ts";

const DAYS = 30;

export function UsagePage() {
  const usage = useLoad(async () => tabulate(await unwrap(api.GET("/api/v1/usage", { params: { query: { days: DAYS } } }))));
  const table = usage.data;
  const activeDays = table ? table.days.filter((day) => table.counts[day]) : [];
  return (
    <>
      <h1 tabIndex={-1}>Usage, last {DAYS} days</h1>
      <p class="hint">
        Requests made with the X-API-Key header by every key of this account, per UTC day and endpoint group. Requests with Authorization:
        Bearer (this console's own) are not counted, as the API specification says.
      </p>
      <ErrorMessage error={usage.error} />
      {table && (
        <>
          {activeDays.length === 0 ? <p>No requests counted in the last {DAYS} days.</p> : <UsageChart usage={table} />}
          {activeDays.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption>Requests per day and endpoint group</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    {table.groups.map((group) => (
                      <th scope="col" key={group}>
                        {group}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {activeDays.map((day) => (
                    <tr key={day}>
                      <th scope="row">{day}</th>
                      {table.groups.map((group) => (
                        <td key={group}>{table.counts[day]?.[group] ?? 0}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}
