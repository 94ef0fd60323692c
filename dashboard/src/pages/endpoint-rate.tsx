import { type FormEvent, useState } from 'react';
import { useAction } from '../components/mutation';
import { Dialog, ErrorAlert, Field } from '../components/ui';
import { graphql } from '../graphql';

const SetEndpointRate = graphql(`
  mutation SetEndpointRate($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) { id rateLimitPerSecond }
  }
`);

/** An endpoint's rate as the page says it. */
export const rateText = (rate: number | null) => (rate === null ? 'Unlimited' : `${rate} per second`);

/**
 * The form's rate: empty is unlimited (null); anything else goes to the server as typed, which judges
 * it (1–1000, whole) and answers beside the field.
 */
export function rateFromForm(form: FormData): number | null {
  const text = String(form.get('rateLimitPerSecond') ?? '').trim();
  return text === '' ? null : Number(text);
}

/** "Max deliveries per second", optional, in the endpoint forms. */
export function RateField({ error, defaultValue }: { error?: string; defaultValue?: number | null }) {
  return (
    <Field
      label="Max deliveries per second"
      name="rateLimitPerSecond"
      error={error}
      hint="Optional, 1–1000. Deliveries beyond it wait their turn; empty means unlimited"
    >
      {(a) => (
        <input
          {...a}
          type="number"
          inputMode="numeric"
          min={1}
          max={1000}
          step={1}
          defaultValue={defaultValue ?? ''}
        />
      )}
    </Field>
  );
}

/** Change the endpoint's rate from its page; the next delivery attempt already keeps to it. */
export function EndpointRateDialog(props: { id: string; rate: number | null; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const save = useAction(SetEndpointRate);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const rateLimitPerSecond = rateFromForm(new FormData(event.currentTarget));
    const done = await save.run({ id: props.id, input: { rateLimitPerSecond } });
    if (done) {
      setOpen(false);
      props.onChanged();
    }
  };
  return (
    <Dialog
      title="Delivery rate"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) save.clear();
      }}
      trigger={<button type="button">Change rate</button>}
    >
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={save.error} />
        <RateField error={save.error?.fields.rateLimitPerSecond} defaultValue={props.rate} />
        <div className="actions">
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.busy}>
            Save rate
          </button>
        </div>
      </form>
    </Dialog>
  );
}
