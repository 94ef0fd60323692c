import type { Plan } from '../../prisma/generated/client/enums';

export interface PlanFeatures {
  apiAccess: boolean;
  canAccessWebhooks: boolean;
}

/** What each plan includes (docs/design.md "Plans and stores"); GraphQL's StoreSettings.planFeatures shows it. */
export const planFeatures: Record<Plan, PlanFeatures> = {
  FREE: { apiAccess: false, canAccessWebhooks: false },
  STARTER: { apiAccess: false, canAccessWebhooks: false },
  PRO: { apiAccess: true, canAccessWebhooks: true },
  SCALE: { apiAccess: true, canAccessWebhooks: true },
};
