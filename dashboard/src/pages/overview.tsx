import { useMemo } from 'react';
import { useQuery } from 'urql';
import { DailyChart } from '../components/chart';
import { ErrorAlert, Loading, Money } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { formatMoney } from '../money';
import { apiAccessOf, can, useSession } from '../session';

const SummaryQuery = graphql(`
  query Overview {
    analyticsSummary {
      currency
      ordersCount
      revenueAmount
      newCustomersCount
      daily { date ordersCount revenueAmount }
    }
  }
`);

const UsageQuery = graphql(`
  query KeyUsage {
    apiKeyStats { keys { keyId keyName daily { date count } } }
  }
`);

/** The store at a glance: the last 30 days' figures, orders and revenue per day, API requests per key. */
export function OverviewPage() {
  const { session } = useSession();
  const [summary] = useQuery({ query: SummaryQuery });
  const showUsage = session ? can(session, 'API_KEYS', 'READ') && apiAccessOf(session) : false;
  const [usage] = useQuery({ query: UsageQuery, pause: !showUsage });
  const data = summary.data?.analyticsSummary;
  const salesSeries = useMemo(
    () =>
      data
        ? [
            { label: 'Orders', values: data.daily.map((d) => d.ordersCount) },
            { label: 'Revenue', values: data.daily.map((d) => d.revenueAmount), axis: 'right' as const },
          ]
        : [],
    [data],
  );
  const currency = data?.currency;
  const salesDays = useMemo(() => data?.daily.map((d) => d.date) ?? [], [data]);
  const money = useMemo(() => (currency ? (n: number) => formatMoney(n, currency) : undefined), [currency]);
  const usageDays = useMemo(() => {
    const dates = new Set<string>();
    for (const key of usage.data?.apiKeyStats.keys ?? []) for (const d of key.daily) dates.add(d.date);
    return [...dates].sort();
  }, [usage.data]);
  const usageSeries = useMemo(
    () =>
      (usage.data?.apiKeyStats.keys ?? []).map((key) => {
        const byDate = new Map(key.daily.map((d) => [d.date, d.count]));
        return { label: key.keyName, values: usageDays.map((date) => byDate.get(date) ?? 0) };
      }),
    [usage.data, usageDays],
  );
  if (!session) return null;
  return (
    <>
      <h1>Overview</h1>
      <p>
        {session.store.name} · {session.store.plan} plan
      </p>
      {summary.fetching && !data ? <Loading what="the last 30 days" /> : null}
      <ErrorAlert error={summary.error ? fromCombined(summary.error) : null} />
      {data ? (
        <>
          <section aria-label="The last 30 days" className="figures">
            <div>
              <span className="figure">{data.ordersCount}</span> orders
            </div>
            <div>
              <span className="figure">
                <Money amount={data.revenueAmount} currency={data.currency} />
              </span>{' '}
              revenue
            </div>
            <div>
              <span className="figure">{data.newCustomersCount}</span> new customers
            </div>
          </section>
          <DailyChart
            title="Orders and revenue per day, the last 30 days"
            days={salesDays}
            series={salesSeries}
            format={money}
          />
        </>
      ) : null}
      {showUsage ? (
        usage.data && usageSeries.length > 0 ? (
          <DailyChart title="API requests per day, per key" days={usageDays} series={usageSeries} />
        ) : usage.data ? (
          <p className="empty">No API requests in the last 30 days.</p>
        ) : (
          <Loading what="API usage" />
        )
      ) : null}
    </>
  );
}
