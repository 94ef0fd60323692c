import { z } from 'zod';

export const reviewStatuses = ['pending', 'approved', 'rejected'] as const;

/** Moderation changes the status and nothing else: what the customer wrote is theirs. */
export const moderateReviewInput = z
  .object({ status: z.enum(reviewStatuses, 'must be pending, approved or rejected') })
  .strict();
