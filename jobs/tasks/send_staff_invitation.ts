import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import {
  hashInvitationToken,
  INVITATION_TTL_MS,
  invitationExpiry,
  mintInvitationToken,
} from '../../src/auth/invitation-token';
import type { Mailer } from './send_email';

const roleWords = { OWNER: 'an owner', ADMIN: 'an admin', STAFF: 'a staff member' } as const;

/**
 * A staff invitation's e-mail (README "Staff invitations"). The payload is the invitation's id only:
 * the token is minted here, its sha256 stored (replacing any earlier one, so only the latest link
 * works) and the link sent. A retry mints a fresh token; an invitation accepted or revoked meanwhile
 * sends nothing. The token is in the e-mail and nowhere else: not in the job, the database or a log.
 */
export const makeSendStaffInvitation =
  (deps: { prisma: PrismaClient; mailer: Mailer; publicUrl: string; now: () => Date }): Task =>
  async (payload) => {
    const { invitationId } = payload as { invitationId: string };
    const token = mintInvitationToken();
    const now = deps.now();
    const invitation = await deps.prisma.$transaction(async (tx) => {
      const found = await tx.staffInvitation.findUnique({
        where: { id: invitationId },
        select: {
          invitedByName: true,
          staffUser: {
            select: {
              email: true,
              name: true,
              role: true,
              passwordHash: true,
              store: { select: { name: true } },
            },
          },
        },
      });
      if (!found || found.staffUser.passwordHash !== null) return null;
      await tx.staffInvitation.update({
        where: { id: invitationId },
        data: { tokenHash: hashInvitationToken(token), sentAt: now, expiresAt: invitationExpiry(now) },
      });
      return found;
    });
    if (!invitation) return;
    const { staffUser: member } = invitation;
    const link = `${deps.publicUrl}/accept-invite?token=${token}`;
    await deps.mailer.send(
      {
        to: member.email,
        subject: `You are invited to ${member.store.name}`,
        text: [
          `Hello ${member.name},`,
          '',
          `${invitation.invitedByName} invited you to ${member.store.name} as ${roleWords[member.role]}.`,
          '',
          'Choose your password and sign in here:',
          link,
          '',
          `The link expires in ${INVITATION_TTL_MS / 3_600_000} hours and works once. If it has expired, ask ${invitation.invitedByName} for a new invitation.`,
          'If you did not expect this invitation, ignore this e-mail.',
        ].join('\n'),
      },
      [token],
    );
  };
