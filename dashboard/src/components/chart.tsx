import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  /** null: no value for that point (a gap in the line, a dash in the table). */
  values: Array<number | null>;
  /** Axis side: 'left' (default) or 'right', for a second unit (revenue beside counts). */
  axis?: 'left' | 'right';
}

/** The canvas as wide as its container, never narrower than a small phone's column. */
const widthOf = (element: HTMLElement) =>
  Math.max(240, Math.floor(element.getBoundingClientRect().width || 640));

const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2'];

/**
 * A line chart of daily values (uPlot: small, canvas, no dependencies) with its text alternative:
 * the same numbers as a table, for screen readers and anyone who wants them.
 */
export function DailyChart(props: {
  title: string;
  days: string[];
  series: Series[];
  format?: (n: number) => string;
  /** What a point is, for the table's first column and the legend: "Day" unless told. */
  unit?: string;
  /** The x axis' short label of a point (default: a YYYY-MM-DD day without its year). */
  tick?: (label: string) => string;
  /** The right axis' fixed range (a percentage: [0, 100]); automatic unless told. */
  rightRange?: [number, number];
}) {
  const holder = useRef<HTMLDivElement>(null);
  const { days, series, format, unit = 'Day', tick, rightRange } = props;
  useEffect(() => {
    const element = holder.current;
    if (!element || days.length === 0) return;
    const right = series.some((s) => s.axis === 'right');
    const chart = new uPlot(
      {
        width: widthOf(element),
        height: 220,
        scales: {
          x: { time: false },
          ...(right ? { right: rightRange ? { auto: false, range: rightRange } : { auto: true } } : {}),
        },
        axes: [
          {
            values: (_u, ticks) =>
              ticks.map((t) => {
                const label = days[Math.round(t)];
                return label === undefined ? '' : tick ? tick(label) : label.slice(5);
              }),
          },
          { size: 50 },
          ...(right
            ? [
                {
                  side: 1,
                  scale: 'right',
                  size: 80,
                  grid: { show: false },
                  values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (format ? format(t) : String(t))),
                },
              ]
            : []),
        ],
        series: [
          { label: unit, value: (_u, index) => (index == null ? '' : (days[Math.round(index)] ?? '')) },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            ...(s.axis === 'right'
              ? {
                  scale: 'right',
                  value: (_u: uPlot, v: number | null) =>
                    v == null || !format ? String(v ?? '') : format(v),
                }
              : {}),
          })),
        ],
      },
      [days.map((_d, i) => i), ...series.map((s) => s.values)],
      element,
    );
    // The chart follows its container's width (a phone, a rotated phone, a resized window).
    const resize = new ResizeObserver(() => {
      const width = widthOf(element);
      if (width !== chart.width) chart.setSize({ width, height: chart.height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, format, unit, tick, rightRange]);
  return (
    <figure className="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={holder} aria-hidden="true" />
      <details>
        <summary>{props.title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{unit}</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <td key={s.label}>
                    {cell(s.values[i] ?? null, props.format && s.axis === 'right' ? props.format : undefined)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const cell = (value: number | null, format?: (n: number) => string) =>
  value === null ? '—' : format ? format(value) : value;
