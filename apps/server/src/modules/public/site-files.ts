import { settingValueError } from '@coffer/shared';
import type { FastifyPluginAsync } from 'fastify';

/** The pages anyone may read and a search engine may list: the sitemap's pages. */
export const PUBLIC_PAGES = ['/', '/about', '/welcome', '/auth'] as const;

/**
 * Paths of the web app that are a signed-in person's or a mailed link's (a verification,
 * reset, freeze or set-password link carries its token in the address): never crawled.
 * Each is a prefix, so `/dashboard` covers every page under it.
 */
export const PRIVATE_PREFIXES = [
  '/api/',
  '/dashboard',
  '/admin',
  '/kyc',
  '/asset-selection',
  '/withdraw',
  '/bank-transfer',
  '/bank-details',
  '/secret-combination',
  '/verify-email',
  '/reset-password',
  '/freeze',
  '/set-password',
  '/metrics',
] as const;

/** How long a security.txt stays valid: under a year, as its standard recommends. */
const SECURITY_TXT_DAYS = 364;

/** PUBLIC_URL without a trailing slash, so paths join to it with one. */
function base(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${base(publicUrl)}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(publicUrl: string): string {
  const urls = PUBLIC_PAGES.map(
    (page) => `  <url><loc>${base(publicUrl)}${page === '/' ? '/' : page}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * The security.txt of a contact (an e-mail address or an https:// page). `Expires` is
 * worked out at each request, so the file never goes stale while the contact is set.
 */
export function securityTxt(contact: string, publicUrl: string, now: Date): string {
  const expires = new Date(now.getTime() + SECURITY_TXT_DAYS * 86_400_000);
  expires.setUTCHours(0, 0, 0, 0);
  return [
    `Contact: ${contact.startsWith('https://') ? contact : `mailto:${contact}`}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    `Canonical: ${base(publicUrl)}/.well-known/security.txt`,
    'Preferred-Languages: en',
    '',
  ].join('\n');
}

/**
 * `/robots.txt`, `/sitemap.xml` and `/.well-known/security.txt`, with absolute addresses
 * from PUBLIC_URL. security.txt is a 404 until an admin sets `security_contact`: a file
 * naming no one to write to would be worse than none.
 */
export function siteFilesRoutes(deps: {
  settings: { get(key: string): Promise<string | null> };
  publicUrl: string;
  now?: () => Date;
}): FastifyPluginAsync {
  const now = deps.now ?? (() => new Date());
  return async (app) => {
    const config = { access: 'public' as const };
    app.get('/robots.txt', { config }, async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(robotsTxt(deps.publicUrl)),
    );
    app.get('/sitemap.xml', { config }, async (_request, reply) =>
      reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(sitemapXml(deps.publicUrl)),
    );
    app.get('/.well-known/security.txt', { config }, async (_request, reply) => {
      const contact = (await deps.settings.get('security_contact')) ?? '';
      // A value stored around the settings screen's check (say, with a line break) would
      // add a field of its own: only a valid one is published.
      if (contact === '' || settingValueError('security_contact', 'text', contact) !== null)
        return reply.status(404).send({ error: 'NOT_FOUND', message: 'Not found.' });
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(securityTxt(contact, deps.publicUrl, now()));
    });
  };
}
