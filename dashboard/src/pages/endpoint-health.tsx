import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { DailyChart } from '../components/chart';
import { Empty, ErrorAlert, Loading } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';

const HealthQuery = graphql(`
  query EndpointHealth($id: ID!, $window: WebhookHealthWindow!) {
    webhookEndpointHealth(id: $id, window: $window) {
      unit
      buckets { start deliveries attempts succeeded successRate medianMs p95Ms }
    }
  }
`);

const windows = [
  { value: 'LAST_24_HOURS', label: 'Last 24 hours', per: 'per hour' },
  { value: 'LAST_30_DAYS', label: 'Last 30 days', per: 'per day' },
] as const;
type Window = (typeof windows)[number]['value'];

/** A bucket's start in the store's time zone: `YYYY-MM-DD HH:mm` for an hour, `YYYY-MM-DD` for a day. */
function bucketLabel(start: string, unit: string, timeZone: string) {
  const at = new Date(start);
  const day = at.toLocaleDateString('sv-SE', { timeZone });
  if (unit === 'day') return day;
  return `${day} ${at.toLocaleTimeString('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false })}`;
}

const percent = (n: number) => `${n}%`;
const hourTick = (label: string) => label.slice(11);
const PERCENT_RANGE: [number, number] = [0, 100];

/**
 * README "Webhooks", endpoint health: attempts and success rate, and median and p95 latency, per
 * hour over the last 24 hours or per day over 30 days, each chart with its table.
 */
export function EndpointHealth({ endpointId, timeZone }: { endpointId: string; timeZone: string }) {
  const [range, setRange] = useState<Window>('LAST_24_HOURS');
  const [result, refetch] = useQuery({ query: HealthQuery, variables: { id: endpointId, window: range } });
  const health = result.data?.webhookEndpointHealth;
  const chosen = windows.find((w) => w.value === range) ?? windows[0];
  const view = useMemo(() => {
    if (!health) return null;
    const { buckets, unit } = health;
    const attempts = buckets.reduce((sum, b) => sum + b.attempts, 0);
    const succeeded = buckets.reduce((sum, b) => sum + b.succeeded, 0);
    return {
      unit,
      attempts,
      rate: attempts === 0 ? null : Math.round((succeeded / attempts) * 1000) / 10,
      labels: buckets.map((b) => bucketLabel(b.start, unit, timeZone)),
      traffic: [
        { label: 'Deliveries', values: buckets.map((b) => b.deliveries) },
        { label: 'Attempts', values: buckets.map((b) => b.attempts) },
        {
          label: 'Success rate',
          axis: 'right' as const,
          values: buckets.map((b) => (b.successRate === null ? null : Math.round(b.successRate * 1000) / 10)),
        },
      ],
      latency: [
        { label: 'Median (ms)', values: buckets.map((b) => b.medianMs) },
        { label: 'p95 (ms)', values: buckets.map((b) => b.p95Ms) },
      ],
    };
  }, [health, timeZone]);
  const unitName = view?.unit === 'day' ? 'Day' : 'Hour';
  return (
    <section aria-labelledby="endpoint-health">
      <h2 id="endpoint-health">Health</h2>
      <div className="filters">
        <label>
          Window{' '}
          <select value={range} onChange={(e) => setRange(e.target.value as Window)}>
            {windows.map((w) => (
              <option key={w.value} value={w.value}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Refresh health
        </button>
      </div>
      {result.fetching && !view ? <Loading what="the endpoint’s health" /> : null}
      <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      {view ? (
        view.attempts === 0 ? (
          <Empty>No attempts in the {chosen.label.toLowerCase()}.</Empty>
        ) : (
          <>
            <section aria-label={`Health, ${chosen.label.toLowerCase()}`} className="figures">
              <div>
                <span className="figure">{view.attempts}</span> attempts
              </div>
              <div>
                <span className="figure">{view.rate}%</span> succeeded
              </div>
            </section>
            <DailyChart
              title={`Deliveries, attempts and success rate ${chosen.per}, ${chosen.label.toLowerCase()}`}
              days={view.labels}
              series={view.traffic}
              format={percent}
              rightRange={PERCENT_RANGE}
              unit={unitName}
              tick={view.unit === 'hour' ? hourTick : undefined}
            />
            <DailyChart
              title={`Latency ${chosen.per} (median and p95, ms), ${chosen.label.toLowerCase()}`}
              days={view.labels}
              series={view.latency}
              unit={unitName}
              tick={view.unit === 'hour' ? hourTick : undefined}
            />
          </>
        )
      ) : null}
    </section>
  );
}
