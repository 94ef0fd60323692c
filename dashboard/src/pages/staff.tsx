import { useState } from 'react';
import { useQuery } from 'urql';
import { FilterSelect, SearchForm, usePagedFilters } from '../components/filters';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ConfirmButton, ErrorAlert, When } from '../components/ui';
import { graphql } from '../graphql';
import { can, type Session, useSession } from '../session';
import {
  ChangeRoleDialog,
  InviteStaffDialog,
  type Role,
  roles,
  StaffFields,
  type StaffMember,
} from './staff-forms';

const StaffQuery = graphql(
  `
  query Staff($page: Int, $q: String, $role: StaffRole) {
    staffMembers(page: $page, limit: 25, q: $q, role: $role, sortBy: createdAt, sortDirection: asc) {
      items { ...StaffRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [StaffFields],
);

const SetActive = graphql(
  `
  mutation SetStaffActive($id: ID!, $isActive: Boolean!) {
    updateStaff(id: $id, input: { isActive: $isActive }) { ...StaffRow }
  }
`,
  [StaffFields],
);
const MakeOwner = graphql(
  `
  mutation MakeOwner($id: ID!) { updateStaff(id: $id, input: { role: OWNER }) { ...StaffRow } }
`,
  [StaffFields],
);
const RemoveStaff = graphql(`mutation RemoveStaff($id: ID!) { removeStaff(id: $id) { id deleted } }`);
const ResendInvitation = graphql(
  `
  mutation ResendInvitation($id: ID!) { resendStaffInvitation(id: $id) { ...StaffRow } }
`,
  [StaffFields],
);
const RevokeInvitation = graphql(`
  mutation RevokeInvitation($id: ID!) { revokeStaffInvitation(id: $id) { id deleted } }
`);

/** What a person reading the list needs to know of a member: can they sign in, and if not, why. */
function statusOf(member: StaffMember): { label: string; tone: string } {
  if (member.invitation?.status === 'EXPIRED') return { label: 'invitation expired', tone: 'revoked' };
  if (member.invitation) return { label: 'invited', tone: 'pending' };
  return member.isActive ? { label: 'active', tone: 'active' } : { label: 'inactive', tone: 'inactive' };
}

/** Staff (owners and admins): the members, invite, change role, deactivate, remove, invitations. */
export function StaffPage() {
  const { session } = useSession();
  const allowed = session ? can(session, 'STAFF', 'READ') : false;
  const { page, setPage, filters, change } = usePagedFilters({ q: '', role: '' as Role | '' });
  const [result, refetch] = useQuery({
    query: StaffQuery,
    variables: { page, q: filters.q || null, role: filters.role || null },
    pause: !allowed,
  });
  if (!session) return null;
  if (!allowed)
    return (
      <NotYours title="Staff">
        <p>
          The store's staff are managed by its owners and admins. Your role ({session.staff.role}) does not
          include them; ask an owner or admin to invite a colleague or change a role.
        </p>
      </NotYours>
    );
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <>
      <h1>Staff</h1>
      <SearchForm
        label="Find staff"
        placeholder="Name or e-mail"
        value={filters.q}
        onSearch={(q) => change({ q })}
      >
        <FilterSelect
          label="Role"
          value={filters.role}
          options={roles}
          any
          onChange={(role) => change({ role })}
        />
        {can(session, 'STAFF', 'WRITE') ? <InviteStaffDialog session={session} onInvited={reload} /> : null}
      </SearchForm>
      <ListView
        what="Staff"
        page={result.data?.staffMembers}
        fetching={result.fetching}
        error={result.error}
        empty="No staff member matches."
        onPage={setPage}
      >
        {(items) => (
          <table className="staff-table">
            <caption className="sr-only">Staff</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((member) => (
                <StaffRow key={member.id} member={member} session={session} onChanged={reload} />
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

function StaffRow(props: { member: StaffMember; session: Session; onChanged: () => void }) {
  const { member, session, onChanged } = props;
  const { reload } = useSession();
  const status = statusOf(member);
  const isSelf = member.id === session.staff.id;
  // Changing an owner is an owner's (the API says so too: 403 INSUFFICIENT_SCOPE).
  const mayChange = !isSelf && (member.role !== 'OWNER' || session.staff.role === 'OWNER');
  return (
    <tr>
      <th scope="row">
        {member.name}
        {isSelf ? <span className="muted"> (you)</span> : null}
      </th>
      <td className="email">{member.email}</td>
      <td>{member.role}</td>
      <td>
        <span className={`status status-${status.tone}`}>{status.label}</span>
        {member.invitation ? (
          <div className="muted">
            {member.invitation.status === 'EXPIRED' ? 'expired ' : 'until '}
            <When at={member.invitation.expiresAt} />
          </div>
        ) : null}
      </td>
      <td>
        <When at={member.lastLoginAt} />
      </td>
      <td>
        {mayChange ? (
          <div className="actions staff-actions">
            <MemberActions {...props} />
          </div>
        ) : null}
        {isSelf && can(session, 'STAFF', 'UPDATE') ? (
          // Stepping down (an owner who handed over ownership): the session's rights change with it.
          <div className="actions staff-actions">
            <ChangeRoleDialog
              member={member}
              session={session}
              onChanged={() => {
                onChanged();
                void reload();
              }}
            />
          </div>
        ) : null}
      </td>
    </tr>
  );
}

function MemberActions({
  member,
  session,
  onChanged,
}: {
  member: StaffMember;
  session: Session;
  onChanged: () => void;
}) {
  const toggle = useAction(SetActive);
  const makeOwner = useAction(MakeOwner);
  const remove = useAction(RemoveStaff);
  const resend = useAction(ResendInvitation);
  const revoke = useAction(RevokeInvitation);
  const [sent, setSent] = useState(false);
  const invited = member.invitation !== null;
  return (
    <>
      {invited && can(session, 'STAFF', 'WRITE') ? (
        <>
          <button
            type="button"
            aria-label={`Resend invitation to ${member.name}`}
            disabled={resend.busy}
            onClick={async () => {
              if (await resend.run({ id: member.id })) {
                setSent(true);
                onChanged();
              }
            }}
          >
            Resend invitation
          </button>
          <ConfirmButton
            label="Revoke invitation"
            name={`Revoke invitation of ${member.name}`}
            danger
            title={`Revoke the invitation of ${member.name}?`}
            body={`The link sent to ${member.email} stops working and ${member.name}, who never signed in, is removed from the staff. You can invite them again later.`}
            confirm="Revoke invitation"
            onConfirm={async () => {
              const done = await revoke.run({ id: member.id });
              if (done) onChanged();
              return done !== null;
            }}
          >
            <ErrorAlert error={revoke.error} />
          </ConfirmButton>
        </>
      ) : null}
      {can(session, 'STAFF', 'UPDATE') ? (
        <>
          <ChangeRoleDialog member={member} session={session} onChanged={onChanged} />
          {session.staff.role === 'OWNER' && member.role !== 'OWNER' && member.isActive && !invited ? (
            <ConfirmButton
              label="Make owner"
              name={`Make owner: ${member.name}`}
              title={`Make ${member.name} an owner?`}
              body={
                <p>
                  {member.name} gets every right of an owner, handing over ownership included. You stay an
                  owner too (a store may have several); to step down, ask the new owner to change your role
                  afterwards.
                </p>
              }
              confirm="Make owner"
              onConfirm={async () => {
                const done = await makeOwner.run({ id: member.id });
                if (done) onChanged();
                return done !== null;
              }}
            >
              <ErrorAlert error={makeOwner.error} />
            </ConfirmButton>
          ) : null}
          {member.isActive ? (
            <ConfirmButton
              label="Deactivate"
              name={`Deactivate ${member.name}`}
              title={`Deactivate ${member.name}?`}
              body={`${member.name} is signed out everywhere and cannot sign in until reactivated.`}
              confirm="Deactivate"
              onConfirm={async () => {
                const done = await toggle.run({ id: member.id, isActive: false });
                if (done) onChanged();
                return done !== null;
              }}
            >
              <ErrorAlert error={toggle.error} />
            </ConfirmButton>
          ) : (
            <button
              type="button"
              aria-label={`Reactivate ${member.name}`}
              disabled={toggle.busy}
              onClick={async () => {
                if (await toggle.run({ id: member.id, isActive: true })) onChanged();
              }}
            >
              Reactivate
            </button>
          )}
        </>
      ) : null}
      {can(session, 'STAFF', 'DELETE') ? (
        <ConfirmButton
          label="Remove"
          name={`Remove ${member.name}`}
          danger
          title={`Remove ${member.name}?`}
          body={`${member.name} (${member.email}) is signed out and removed from the store's staff. This cannot be undone.`}
          confirm="Remove"
          onConfirm={async () => {
            const done = await remove.run({ id: member.id });
            if (done) onChanged();
            return done !== null;
          }}
        >
          <ErrorAlert error={remove.error} />
        </ConfirmButton>
      ) : null}
      {sent ? (
        <p className="muted" role="status">
          Invitation sent again
        </p>
      ) : null}
      <ErrorAlert error={resend.error ?? (member.isActive ? null : toggle.error)} />
    </>
  );
}
