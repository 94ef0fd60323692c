import { type FormEvent, useState } from 'react';
import { useAction } from '../components/mutation';
import { Dialog, ErrorAlert, Field } from '../components/ui';
import { graphql, type ResultOf } from '../graphql';
import type { Session } from '../session';

export const StaffFields = graphql(`
  fragment StaffRow on StaffMember {
    id email name role isActive lastLoginAt
    invitation { status sentAt expiresAt }
  }
`);

export type StaffMember = ResultOf<typeof StaffFields>;
export const roles = ['OWNER', 'ADMIN', 'STAFF'] as const;
export type Role = (typeof roles)[number];

const InviteStaff = graphql(`
  mutation InviteStaff($input: InviteStaffInput!) { inviteStaff(input: $input) { id email } }
`);
const ChangeRole = graphql(
  `
  mutation ChangeStaffRole($id: ID!, $role: StaffRole!) { updateStaff(id: $id, input: { role: $role }) { ...StaffRow } }
`,
  [StaffFields],
);

/** The roles this session may give: an owner's is an owner's to give (the API's credential rule). */
const grantable = (session: Session): Role[] =>
  session.staff.role === 'OWNER' ? ['STAFF', 'ADMIN', 'OWNER'] : ['STAFF', 'ADMIN'];

const roleHint: Record<Role, string> = {
  STAFF: 'Products, orders and customers; no keys, webhooks, settings or staff',
  ADMIN: 'Everything but changing the owner',
  OWNER: 'Everything, handing over ownership included',
};

/** Invite: e-mail, name and a role; the API e-mails a link (72 h) where the person sets a password. */
export function InviteStaffDialog({ session, onInvited }: { session: Session; onInvited: () => void }) {
  const [open, setOpen] = useState(false);
  const [invited, setInvited] = useState<string | null>(null);
  const [role, setRole] = useState<Role>('STAFF');
  const invite = useAction(InviteStaff);
  // Closed however it closes (Done, Escape, ×), it opens afresh: an empty form.
  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setInvited(null);
      setRole('STAFF');
      invite.clear();
    }
  };
  const errors = invite.error?.fields ?? {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const done = await invite.run({
      input: { email: String(form.get('email') ?? ''), name: String(form.get('name') ?? ''), role },
    });
    if (done) {
      setInvited(done.inviteStaff.email);
      onInvited();
    }
  };
  return (
    <Dialog
      title={invited ? 'Invitation sent' : 'Invite a staff member'}
      open={open}
      onOpenChange={openChange}
      trigger={
        <button type="button" className="primary">
          Invite
        </button>
      }
    >
      {invited ? (
        <>
          <p role="status">
            An e-mail with a link to set a password is on its way to <strong>{invited}</strong>. The link
            works once, for 72 hours; you can resend or revoke it from the list.
          </p>
          <div className="actions">
            <button type="button" className="primary" onClick={() => openChange(false)}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorAlert error={invite.error} />
          <Field label="E-mail" name="email" error={errors.email}>
            {(a) => <input {...a} type="email" autoComplete="off" />}
          </Field>
          <Field label="Name" name="name" error={errors.name}>
            {(a) => <input {...a} autoComplete="off" />}
          </Field>
          <Field label="Role" name="role" error={errors.role} hint={roleHint[role]}>
            {(a) => (
              <select {...a} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {grantable(session).map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="actions">
            <button type="submit" className="primary" disabled={invite.busy}>
              Send invitation
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Change role between ADMIN and STAFF (making an owner is its own, owner-only, action). */
export function ChangeRoleDialog(props: { member: StaffMember; session: Session; onChanged: () => void }) {
  const { member, onChanged } = props;
  const [open, setOpen] = useState(false);
  const change = useAction(ChangeRole);
  const choices = grantable(props.session).filter((r) => r !== 'OWNER');
  const [role, setRole] = useState<Role>(member.role === 'OWNER' ? 'ADMIN' : member.role);
  return (
    <Dialog
      title={`Change the role of ${member.name}`}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) change.clear();
      }}
      trigger={
        <button type="button" aria-label={`Change role of ${member.name}`}>
          Change role
        </button>
      }
    >
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (await change.run({ id: member.id, role })) {
            setOpen(false);
            onChanged();
          }
        }}
      >
        <ErrorAlert error={change.error} />
        <Field label="Role" name="role" error={change.error?.fields.role} hint={roleHint[role]}>
          {(a) => (
            <select {...a} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {choices.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={change.busy}>
            Save role
          </button>
        </div>
      </form>
    </Dialog>
  );
}
