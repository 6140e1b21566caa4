/**
 * Requests per day as stacked bars, one colour per endpoint group: an SVG drawn from the data (no
 * chart library for thirty bars), with the same figures in a table for screen readers.
 */
import type { DailyUsage } from "../usage-table.ts";

const PALETTE = ["#2563eb", "#d97706", "#059669", "#dc2626", "#7c3aed", "#0891b2", "#4b5563", "#db2777"];
const WIDTH = 720;
const HEIGHT = 240;
const AXIS = 40;

export function UsageChart({ usage }: { usage: DailyUsage }) {
  const totals = usage.days.map((day) => usage.groups.reduce((sum, group) => sum + (usage.counts[day]?.[group] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const slot = (WIDTH - AXIS) / usage.days.length;
  const scale = (HEIGHT - 20) / max;
  const colour = (group: string) => PALETTE[usage.groups.indexOf(group) % PALETTE.length];
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`}
        role="img"
        aria-label={`Requests per day, ${usage.days[0]} to ${usage.days.at(-1)}: ${total} in all, at most ${max} in a day.`}
      >
        <text x="0" y="12" class="axis-label">
          {max}
        </text>
        <text x="0" y={HEIGHT} class="axis-label">
          0
        </text>
        <line x1={AXIS} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} class="axis" />
        {usage.days.map((day, i) => {
          let y = HEIGHT;
          return (
            <g key={day}>
              {usage.groups.map((group) => {
                const count = usage.counts[day]?.[group] ?? 0;
                if (!count) return null;
                const height = count * scale;
                y -= height;
                return (
                  <rect key={group} x={AXIS + i * slot + 1} y={y} width={Math.max(1, slot - 2)} height={height} fill={colour(group)}>
                    <title>{`${day} ${group}: ${count}`}</title>
                  </rect>
                );
              })}
              {i % 7 === 0 && (
                <text x={AXIS + i * slot} y={HEIGHT + 16} class="axis-label">
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul class="legend">
          {usage.groups.map((group) => (
            <li key={group}>
              <span class="swatch" style={{ background: colour(group) }} aria-hidden="true" /> {group}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
