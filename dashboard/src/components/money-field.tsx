import { useState } from 'react';
import { formatAmount, formatMoney, parseMoney } from '../money';
import { Field } from './ui';

/** What a money field holds: the text as typed, and a read that answers minor units or says why not. */
export interface MoneyInput {
  currency: string;
  text: string;
  setText(text: string): void;
  /** The client's message when the text is no amount of the currency. */
  message: string | null;
  /** The typed amount as the store shows it (`$1,234.50`), while the text is one. */
  preview: string | null;
  /**
   * Minor units (null when the optional field is empty), or undefined when the text is no amount: the
   * message then shows by the field and the form sends nothing.
   */
  read(): number | null | undefined;
  check(): void;
  /** Back to `minor` (a dialog opened anew shows the record as it is now). */
  reset(minor: number | null | undefined): void;
}

/**
 * The state of one amount field in `currency`, starting from `initial` minor units shown as the
 * locale writes them (`12.50`, `12,50`).
 */
export function useMoneyInput(
  currency: string,
  initial: number | null | undefined,
  options: { required?: boolean; negative?: boolean } = {},
): MoneyInput {
  const shown = (minor: number | null | undefined) => (minor == null ? '' : formatAmount(minor, currency));
  const [text, setTextState] = useState(shown(initial));
  const [message, setMessage] = useState<string | null>(null);
  const parse = () => parseMoney(text, currency, undefined, { negative: options.negative });
  const typed = text.trim() === '' ? null : parse();
  const read = () => {
    if (text.trim() === '' && !options.required) {
      setMessage(null);
      return null;
    }
    const parsed = parse();
    setMessage(parsed.ok ? null : parsed.message);
    return parsed.ok ? parsed.minor : undefined;
  };
  return {
    currency,
    text,
    message,
    preview: typed?.ok ? formatMoney(typed.minor, currency) : null,
    read,
    check: () => void (text.trim() === '' ? setMessage(null) : read()),
    setText(next) {
      setTextState(next);
      setMessage(null);
    },
    reset(minor) {
      setTextState(shown(minor));
      setMessage(null);
    },
  };
}

/**
 * An amount typed in the store's currency: the label names it ("Price (USD)"), the keyboard is a
 * decimal one, and beside the field the client's message (not an amount) or else the server's, or
 * else the amount as the store will show it.
 */
export function MoneyField(props: { label: string; name: string; money: MoneyInput; error?: string }) {
  const { money } = props;
  return (
    <Field
      label={`${props.label} (${money.currency})`}
      name={props.name}
      error={money.message ?? props.error}
      hint={money.preview ?? undefined}
    >
      {(attributes) => (
        <input
          {...attributes}
          inputMode="decimal"
          autoComplete="off"
          value={money.text}
          onChange={(event) => money.setText(event.target.value)}
          onBlur={money.check}
        />
      )}
    </Field>
  );
}
