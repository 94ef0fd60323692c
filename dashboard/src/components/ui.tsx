import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useId, useState } from 'react';
import type { ApiError } from '../errors';
import { formatMoney } from '../money';

/** Loading, empty and error states: every list and page shows one of them while it has nothing else. */
export const Loading = ({ what }: { what: string }) => (
  <p className="muted" role="status" aria-live="polite">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: ReactNode }) => <p className="empty">{children}</p>;

export function ErrorAlert({ error }: { error: ApiError | null | undefined }) {
  if (!error) return null;
  return (
    <div className="alert" role="alert">
      <strong>{error.code}</strong> {error.message}
    </div>
  );
}

/** A labelled form field with the server's message for it beside it. */
export function Field(props: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: (attributes: {
    id: string;
    name: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  const described = props.error || props.hint ? messageId : undefined;
  return (
    <div className={`field${props.error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        name: props.name,
        'aria-invalid': Boolean(props.error),
        'aria-describedby': described,
      })}
      {props.error ? (
        <span className="field-error" id={messageId}>
          {props.error}
        </span>
      ) : props.hint ? (
        <span className="hint" id={messageId}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}

/** Previous / next over a page list, with where we are. */
export function Pager(props: {
  page: number;
  lastPage: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (props.lastPage <= 1) return <p className="pager muted">{props.total} in all</p>;
  return (
    <nav className="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {props.page} of {props.lastPage} ({props.total} in all)
      </span>
      <button
        type="button"
        disabled={props.page >= props.lastPage}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

/** A modal dialog (Radix): focus kept inside, Escape closes, the title names it. */
export function Dialog(props: {
  trigger: ReactNode;
  title: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <RadixDialog.Trigger asChild>{props.trigger}</RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="overlay" />
        <RadixDialog.Content className="dialog" aria-describedby={undefined}>
          <RadixDialog.Title>{props.title}</RadixDialog.Title>
          {/* The body scrolls on a short screen; the title and the close button stay in view. */}
          <div className="dialog-body">{props.children}</div>
          <RadixDialog.Close asChild>
            <button type="button" className="close" aria-label="Close">
              ×
            </button>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that asks first; `confirm` is what the dialog's own button says. */
export function ConfirmButton(props: {
  label: string;
  /** The button's accessible name when its text alone is ambiguous ("Delete" on every row). */
  name?: string;
  title: string;
  body: ReactNode;
  confirm: string;
  danger?: boolean;
  /** Answers false to keep the dialog open (the action failed; `children` shows why). */
  onConfirm: () => Promise<unknown> | unknown;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={props.title}
      trigger={
        <button type="button" className={props.danger ? 'danger' : undefined} aria-label={props.name}>
          {props.label}
        </button>
      }
    >
      <div>{props.body}</div>
      {props.children}
      <div className="actions">
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? 'danger' : 'primary'}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const done = await props.onConfirm();
            setBusy(false);
            if (done !== false) setOpen(false);
          }}
        >
          {props.confirm}
        </button>
      </div>
    </Dialog>
  );
}

/** A secret the API returns once: a read-only field, Copy, and the warning that it will not come back. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="warning">Copy it now: it will not be shown again.</p>
    </div>
  );
}

/** An amount of the API (minor units) as the currency shows it (dashboard/src/money.ts). */
export const Money = ({ amount, currency }: { amount: number; currency: string }) => (
  <>{formatMoney(amount, currency)}</>
);

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}

export const Status = ({ value }: { value: string }) => (
  <span className={`status status-${value}`}>{value}</span>
);
