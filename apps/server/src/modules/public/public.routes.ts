import fs from 'node:fs';
import path from 'node:path';
import { ZPublicInfo } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export function publicRoutes(deps: {
  settings: { all(): Promise<Map<string, string>> };
  users: { countCustomers(): Promise<number> };
  /** The operator's data folder, where the promo video may be. */
  dataDir: string;
}): FastifyPluginAsyncZod {
  const promoFile = path.join(deps.dataDir, 'public', 'promo.mp4');

  return async (app) => {
    app.get(
      '/api/public/info',
      { config: { access: 'public' }, schema: { response: { 200: ZPublicInfo } } },
      async () => {
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
    );

    // The operator's promo video, served by the app itself (never from a third party).
    app.get('/media/promo.mp4', { config: { access: 'public' } }, async (_request, reply) => {
      if (!fs.existsSync(promoFile))
        return reply.status(404).send({ error: 'NOT_FOUND', message: 'No promo video.' });
      return reply
        .type('video/mp4')
        .header('cache-control', 'public, max-age=3600')
        .send(fs.createReadStream(promoFile));
    });
  };
}
