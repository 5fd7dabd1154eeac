import { z } from 'zod';

/** Live figures for the marketing pages (product.md M2, M4). */
export const ZPublicInfo = z.object({
  staking: z.object({
    /** Decimal string, e.g. "0.0001" for 0.01 % a day. */
    dailyRate: z.string(),
    programStart: z.string(),
  }),
  /** Null when the operator hides the figures (`show_public_stats` false). */
  stats: z
    .object({
      customers: z.number().int(),
    })
    .nullable(),
  supportChatUrl: z.string().nullable(),
  promoVideo: z.boolean(),
});
export type TPublicInfo = z.infer<typeof ZPublicInfo>;
