import { z } from 'zod';

export const ZAdminOverview = z.object({
  totalUsers: z.number().int(),
  health: z.object({
    database: z.boolean(),
    checkedAt: z.string(),
  }),
});
export type TAdminOverview = z.infer<typeof ZAdminOverview>;
