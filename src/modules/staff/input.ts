import { z } from 'zod';
import { StaffRole } from '../../../prisma/generated/client/enums';
import { emailInput } from '../../validation';

const roles = Object.values(StaffRole) as [StaffRole, ...StaffRole[]];

const name = z.string().trim().min(1, 'is required').max(100, 'at most 100 characters');
const role = z.enum(roles, { error: `must be one of ${roles.join(', ')}` });
const password = z.string().min(8, 'must be at least 8 characters').max(200, 'at most 200 characters');

/** An invitation: without a password the user cannot sign in until one is set. */
export const inviteStaffInput = z
  .object({
    email: emailInput.describe(
      'Sign-in e-mail, unique in the store (one person may work for several stores)',
    ),
    name,
    role,
    password: password
      .describe('At least 8 characters; without one the user cannot sign in until one is set')
      .nullish(),
  })
  .strict();

export const staffUpdateInput = z
  .object({
    name: name.optional(),
    role: role.describe('The last active OWNER cannot be demoted').optional(),
    isActive: z
      .boolean('must be true or false')
      .describe('false deactivates and ends the user’s sessions; the last active OWNER cannot be deactivated')
      .optional(),
    password: password.describe('Sets a new password (at least 8 characters)').optional(),
  })
  .strict();

/** An invitation token as the link carries it; its shape only (whether it opens anything is the service's). */
const invitationToken = z.string().min(1, 'is required').max(200, 'at most 200 characters');

/** Accepting an invitation: the link's token, the new password, optionally the name to be known by. */
export const acceptInvitationInput = z
  .object({
    token: invitationToken.describe('The `token` of the invitation link'),
    password: password.describe('The new password, at least 8 characters'),
    name: name.describe('Replaces the name the inviter gave').optional(),
  })
  .strict();

/** A signed-in staff member's own password change. */
export const changePasswordInput = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(1024, 'at most 1024 characters'),
    newPassword: password.describe('At least 8 characters'),
  })
  .strict();
