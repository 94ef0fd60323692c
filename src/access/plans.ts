import type { Plan } from '../../prisma/generated/client/enums';

/** What each plan includes (docs/design.md "Plans and stores"). */
export const planFeatures: Record<Plan, { apiAccess: boolean; canAccessWebhooks: boolean }> = {
  FREE: { apiAccess: false, canAccessWebhooks: false },
  STARTER: { apiAccess: false, canAccessWebhooks: false },
  PRO: { apiAccess: true, canAccessWebhooks: true },
  SCALE: { apiAccess: true, canAccessWebhooks: true },
};
