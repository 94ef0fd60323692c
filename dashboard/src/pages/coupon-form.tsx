import { type FormEvent, useState } from 'react';
import { MoneyField, useMoneyInput } from '../components/money-field';
import { useAction } from '../components/mutation';
import { Dialog, ErrorAlert, Field } from '../components/ui';
import { graphql, type ResultOf } from '../graphql';
import { isoFromLocal, localFromIso } from '../local-time';
import { formatMoney } from '../money';

export const CouponFields = graphql(`
  fragment CouponRow on Coupon {
    id code type value minSubtotalAmount maxRedemptions redemptionCount startsAt endsAt isActive
  }
`);

const CreateCoupon = graphql(
  `
  mutation CreateCoupon($input: CreateCouponInput!) { createCoupon(input: $input) { ...CouponRow } }
`,
  [CouponFields],
);
const UpdateCoupon = graphql(
  `
  mutation UpdateCoupon($id: ID!, $input: UpdateCouponInput!) { updateCoupon(id: $id, input: $input) { ...CouponRow } }
`,
  [CouponFields],
);

export type Coupon = ResultOf<typeof CouponFields>;
type CouponType = Coupon['type'];

/** A whole number typed in a field: null when empty, undefined when it is not one. */
const wholeNumber = (text: string) => (text === '' ? null : /^\d+$/.test(text) ? Number(text) : undefined);

/**
 * Create and edit: code, percent or fixed amount (a MoneyField in the store's currency), minimum
 * subtotal, redemption limit and the window. The server checks the rules (percent 1–100, ends after
 * starts, a free code); its messages show beside their fields.
 */
export function CouponForm(props: {
  title: string;
  trigger: string;
  /** The button's accessible name when its text alone is ambiguous ("Edit" on every row). */
  label?: string;
  coupon?: Coupon;
  currency: string;
  onSaved: () => void;
}) {
  const c = props.coupon;
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<CouponType>(c?.type ?? 'percent');
  const [local, setLocal] = useState<Record<string, string>>({});
  const fixed = useMoneyInput(props.currency, c?.type === 'fixed' ? c.value : null, { required: true });
  const minSubtotal = useMoneyInput(props.currency, c?.minSubtotalAmount);
  const create = useAction(CreateCoupon);
  const update = useAction(UpdateCoupon);
  const action = c ? update : create;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const percent = type === 'percent' ? wholeNumber(text('percent')) : null;
    const maxRedemptions = wholeNumber(text('maxRedemptions'));
    const value = type === 'fixed' ? fixed.read() : percent;
    const minSubtotalAmount = minSubtotal.read();
    const problems: Record<string, string> = {};
    if (type === 'percent' && (percent === undefined || percent === null))
      problems.value = 'enter a whole percent from 1 to 100';
    if (type === 'fixed' && value === 0)
      problems.value = `must be more than ${formatMoney(0, props.currency)}`;
    if (maxRedemptions === undefined) problems.maxRedemptions = 'must be a whole number';
    setLocal(problems);
    // Never send a wrong number: a field that does not parse keeps its message and nothing is sent.
    if (Object.keys(problems).length > 0 || value == null || minSubtotalAmount === undefined) return;
    const input = {
      code: text('code'),
      type,
      value,
      minSubtotalAmount,
      maxRedemptions: maxRedemptions ?? null,
      startsAt: isoFromLocal(text('startsAt')),
      endsAt: isoFromLocal(text('endsAt')),
    };
    const saved = c ? await update.run({ id: c.id, input }) : await create.run({ input });
    if (saved) {
      setOpen(false);
      props.onSaved();
    }
  };
  const errors = { ...(action.error?.fields ?? {}), ...local };
  return (
    <Dialog
      title={props.title}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        action.clear();
        setLocal({});
        setType(c?.type ?? 'percent');
        fixed.reset(c?.type === 'fixed' ? c.value : null);
        minSubtotal.reset(c?.minSubtotalAmount);
      }}
      trigger={
        <button type="button" className={c ? undefined : 'primary'} aria-label={props.label}>
          {props.trigger}
        </button>
      }
    >
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={action.error} />
        <Field label="Code" name="code" error={errors.code} hint="3 to 40 letters, digits, - or _">
          {(a) => <input {...a} defaultValue={c?.code ?? ''} autoComplete="off" />}
        </Field>
        <Field label="Type" name="type" error={errors.type}>
          {(a) => (
            <select {...a} value={type} onChange={(e) => setType(e.target.value as CouponType)}>
              <option value="percent">Percent off</option>
              <option value="fixed">Fixed amount off</option>
            </select>
          )}
        </Field>
        {type === 'percent' ? (
          <Field label="Percent off" name="percent" error={errors.value} hint="1 to 100">
            {(a) => <input {...a} inputMode="numeric" defaultValue={c?.type === 'percent' ? c.value : ''} />}
          </Field>
        ) : (
          <MoneyField label="Amount off" name="value" money={fixed} error={errors.value} />
        )}
        <MoneyField
          label="Minimum subtotal"
          name="minSubtotalAmount"
          money={minSubtotal}
          error={errors.minSubtotalAmount}
        />
        <Field
          label="Maximum redemptions"
          name="maxRedemptions"
          error={errors.maxRedemptions}
          hint="Empty: no limit"
        >
          {(a) => <input {...a} inputMode="numeric" defaultValue={c?.maxRedemptions ?? ''} />}
        </Field>
        <Field label="Starts" name="startsAt" error={errors.startsAt} hint="Empty: at once">
          {(a) => <input {...a} type="datetime-local" defaultValue={localFromIso(c?.startsAt)} />}
        </Field>
        <Field label="Ends" name="endsAt" error={errors.endsAt} hint="Empty: never">
          {(a) => <input {...a} type="datetime-local" defaultValue={localFromIso(c?.endsAt)} />}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={action.busy}>
            {c ? 'Save coupon' : 'Create coupon'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
