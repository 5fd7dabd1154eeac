import fs from 'node:fs';
import path from 'node:path';
import type { TPublicInfo } from '@coffer/shared';

/**
 * The operator's public figures (GET /api/public/info): the staking program, the customer
 * count unless hidden, the support link, and whether there is a promo video. The dashboard
 * read carries the same answer, for the portal menu's support link.
 */
export function createPublicInfo(deps: {
  settings: { all(): Promise<Map<string, string>> };
  users: { countCustomers(): Promise<number> };
  /** The operator's data folder, where the promo video may be. */
  dataDir: string;
}) {
  const promoFile = path.join(deps.dataDir, 'public', 'promo.mp4');
  return {
    promoFile,
    async read(): Promise<TPublicInfo> {
      const settings = await deps.settings.all();
      const showStats = settings.get('show_public_stats') !== 'false';
      return {
        staking: {
          dailyRate: settings.get('staking_daily_rate') ?? '0',
          programStart: settings.get('staking_program_start') ?? '',
        },
        stats: showStats ? { customers: await deps.users.countCustomers() } : null,
        supportChatUrl: settings.get('support_chat_url') || null,
        promoVideo: fs.existsSync(promoFile),
      };
    },
  };
}

export type PublicInfo = ReturnType<typeof createPublicInfo>;
