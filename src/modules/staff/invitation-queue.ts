import type { Principal } from '../../access/principal';
import { invitationExpiry } from '../../auth/invitation-token';
import type { Tx } from '../../db/client';
import { taskName } from '../../task-catalog';

/**
 * Queues the invitation's e-mail in the caller's transaction. The job carries the invitation's id and
 * nothing secret: send_staff_invitation mints the token, stores its digest and sends the link. One job
 * per invitation (its job key): a resend before the first ran replaces it.
 */
export async function queueInvitationEmail(tx: Tx, invitationId: string): Promise<void> {
  await tx.$executeRaw`SELECT graphile_worker.add_job(${taskName.send_staff_invitation}, json_build_object('invitationId', ${invitationId}::text), job_key := ${invitationId}::text, max_attempts := 10)`;
}

/** How the e-mail names who invited: the staff member's name, the key's, or the store. */
export async function inviterName(tx: Tx, principal: Principal | null): Promise<string> {
  if (principal?.kind === 'session') {
    const staff = await tx.staffUser.findUnique({
      where: { id: principal.staffUserId },
      select: { name: true },
    });
    return staff?.name ?? 'A staff member';
  }
  if (principal?.kind === 'apiKey') {
    const key = await tx.apiKey.findUnique({ where: { id: principal.keyId }, select: { keyName: true } });
    return key ? `The API key "${key.keyName}"` : 'An API key';
  }
  return 'The store';
}

/**
 * A member's invitation, new or renewed: any earlier link dies at once (its digest is cleared), the
 * expiry runs from now until the job sends the e-mail (which restarts it), and the e-mail is queued.
 */
export async function inviteMember(
  tx: Tx,
  member: { id: string; storeId: string },
  principal: Principal | null,
  now: Date,
): Promise<{ id: string }> {
  const invitedByName = await inviterName(tx, principal);
  const fields = { invitedByName, tokenHash: null, sentAt: null, expiresAt: invitationExpiry(now) };
  const invitation = await tx.staffInvitation.upsert({
    where: { staffUserId: member.id },
    create: { staffUserId: member.id, storeId: member.storeId, createdAt: now, ...fields },
    update: fields,
    select: { id: true },
  });
  await queueInvitationEmail(tx, invitation.id);
  return invitation;
}
