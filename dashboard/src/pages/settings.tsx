import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ErrorAlert, Field, Loading } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql, type ResultOf } from '../graphql';
import { can, useSession } from '../session';

const SettingsFields = graphql(`
  fragment SettingsForm on StoreSettings {
    id name contactEmail currency timezone plan status
    planFeatures { apiAccess webhooks webhookEndpointLimit }
  }
`);

const SettingsQuery = graphql(`query StoreSettings { storeSettings { ...SettingsForm } }`, [SettingsFields]);

const UpdateSettings = graphql(
  `mutation UpdateStoreSettings($input: UpdateStoreSettingsInput!) {
    updateStoreSettings(input: $input) { ...SettingsForm }
  }`,
  [SettingsFields],
);

type Settings = ResultOf<typeof SettingsFields>;

/** What this browser knows; the server checks again (ISO 4217, IANA), and its message shows beside the field. */
const currencies = Intl.supportedValuesOf('currency');
const timeZones = Intl.supportedValuesOf('timeZone');
const currencyName = new Intl.DisplayNames(undefined, { type: 'currency' });
/** The store's own value stays selectable even where this browser does not list it. */
const withCurrent = (values: string[], current: string) =>
  values.includes(current) ? values : [current, ...values];

/** Settings: the store's name, contact e-mail, currency and time zone; the plan and what it includes. */
export function SettingsPage() {
  const { session } = useSession();
  const [result] = useQuery({
    query: SettingsQuery,
    pause: !session || !can(session, 'STORE_SETTINGS', 'READ'),
  });
  if (!session) return null;
  if (!can(session, 'STORE_SETTINGS', 'READ'))
    return (
      <NotYours title="Settings">
        <p>
          The store's settings are managed by its owners and admins. Your role ({session.staff.role}) does not
          include them.
        </p>
      </NotYours>
    );
  const settings = result.data?.storeSettings;
  return (
    <>
      <h1>Settings</h1>
      <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      {!settings && result.fetching ? <Loading what="settings" /> : null}
      {settings ? (
        <>
          <SettingsEditor settings={settings} editable={can(session, 'STORE_SETTINGS', 'UPDATE')} />
          <Plan settings={settings} />
        </>
      ) : null}
    </>
  );
}

function SettingsEditor({ settings, editable }: { settings: Settings; editable: boolean }) {
  const { reload } = useSession();
  const update = useAction(UpdateSettings);
  const [saved, setSaved] = useState(false);
  const [currency, setCurrency] = useState(settings.currency);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const answer = await update.run({
      input: {
        name: text('name'),
        contactEmail: text('contactEmail') || null,
        currency: text('currency'),
        timezone: text('timezone'),
      },
    });
    if (answer) {
      setSaved(true);
      // The header shows the store's name from the session.
      await reload();
    }
  };
  const errors = update.error?.fields ?? {};
  return (
    <form className="settings" onSubmit={submit} noValidate aria-label="Store settings">
      <h2>Store</h2>
      <ErrorAlert error={update.error} />
      <fieldset disabled={!editable}>
        <legend className="sr-only">Store</legend>
        <Field label="Store name" name="name" error={errors.name}>
          {(a) => <input {...a} defaultValue={settings.name} autoComplete="organization" />}
        </Field>
        <Field
          label="Contact e-mail"
          name="contactEmail"
          error={errors.contactEmail}
          hint="Where the service writes to the store; leave empty for none."
        >
          {(a) => (
            <input {...a} type="email" defaultValue={settings.contactEmail ?? ''} autoComplete="email" />
          )}
        </Field>
        <Field
          label="Currency"
          name="currency"
          error={errors.currency}
          hint={currency === settings.currency ? 'Prices are in this currency.' : undefined}
        >
          {(a) => (
            <select {...a} value={currency} onChange={(e) => setCurrency(e.target.value)}>
              {withCurrent(currencies, settings.currency).map((code) => (
                <option key={code} value={code}>
                  {code} — {currencyName.of(code)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {currency !== settings.currency ? (
          <p className="notice" role="note">
            Changing the currency does not convert existing prices: a product at 12.50 {settings.currency}{' '}
            will cost 12.50 {currency}. Review your prices after saving.
          </p>
        ) : null}
        <Field
          label="Time zone"
          name="timezone"
          error={errors.timezone}
          hint="Days in figures and charts are its days."
        >
          {(a) => (
            <select {...a} defaultValue={settings.timezone}>
              {withCurrent(timeZones, settings.timezone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          )}
        </Field>
        {editable ? (
          <div className="actions">
            <button type="submit" className="primary" disabled={update.busy}>
              Save settings
            </button>
            {saved ? (
              <span role="status" className="muted">
                Saved.
              </span>
            ) : null}
          </div>
        ) : null}
      </fieldset>
    </form>
  );
}

/** The plan as the API describes it (src/access/plans.ts is the one table); it changes through billing. */
function Plan({ settings }: { settings: Settings }) {
  const f = settings.planFeatures;
  return (
    <section aria-labelledby="plan-heading" className="plan-summary">
      <h2 id="plan-heading">Plan: {settings.plan}</h2>
      <ul>
        <li>API keys and API access: {f.apiAccess ? 'included' : 'not included'}</li>
        <li>
          Webhooks: {f.webhooks ? `included, up to ${f.webhookEndpointLimit} endpoints` : 'not included'}
        </li>
        <li>The dashboard: included in every plan</li>
      </ul>
      <p className="muted">The plan is changed through billing, not here.</p>
    </section>
  );
}
