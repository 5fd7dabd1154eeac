import fs from 'node:fs';
import { ZPublicInfo } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PublicInfo } from './public-info';

export function publicRoutes(publicInfo: PublicInfo): FastifyPluginAsyncZod {
  const { promoFile } = publicInfo;

  return async (app) => {
    app.get(
      '/api/public/info',
      { config: { access: 'public' }, schema: { response: { 200: ZPublicInfo } } },
      async () => publicInfo.read(),
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
