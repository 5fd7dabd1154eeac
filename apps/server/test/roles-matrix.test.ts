import fs from 'node:fs';
import path from 'node:path';
import {
  PERMISSION_ROLES,
  PERMISSIONS,
  rolesAllow,
  STAFF_MSG,
  STAFF_ROLE_LABELS,
  STAFF_ROLES,
  type TStaffRole,
} from '@coffer/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatedRoute } from '../src/plugins/gate';
import { call, createTestApp, type SignedInUser, type TestApp, verifiedAdmin } from './helpers';

/**
 * Every admin route × every staff role, against the permission the route declares where it
 * is registered (docs/roles.md). The routes are read from the running app, so a route added
 * later is walked too; and the document's tables are generated from the same sources, so a
 * test fails when it falls behind (`UPDATE_ROLES_DOC=1` rewrites them).
 */

const DOC = path.resolve(import.meta.dirname, '../../../docs/roles.md');

let t: TestApp;
let routes: GatedRoute[];
const staff = new Map<TStaffRole, SignedInUser>();

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app
    .gatedRoutes()
    .filter((r) => r.access === 'admin' && r.method !== 'HEAD')
    .sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
  for (const role of STAFF_ROLES) staff.set(role, await verifiedAdmin(t, [role]));
});
afterAll(async () => {
  await t.close();
});

const nameOf = (r: GatedRoute) => `${r.method} ${r.url}`;

/** A placeholder request: enough to meet the gate, never enough to change anything. */
function send(route: GatedRoute, cookie: string): Promise<LightMyRequestResponse> {
  const url = route.url.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000');
  return call(t, {
    method: route.method as 'GET',
    url,
    cookie,
    ...(route.method === 'GET' ? {} : { body: {} }),
  });
}

const refusedForRole = (res: LightMyRequestResponse) =>
  res.statusCode === 403 && res.json().message === STAFF_MSG.forbiddenRole;

/** The permission × role table, as docs/roles.md shows it. */
function permissionTable(): string {
  const head = `| permission | ${STAFF_ROLES.map((r) => STAFF_ROLE_LABELS[r]).join(' | ')} |`;
  const rule = `| --- | ${STAFF_ROLES.map(() => ':---:').join(' | ')} |`;
  const rows = PERMISSIONS.map((p) => {
    const holders: readonly string[] = PERMISSION_ROLES[p];
    return `| \`${p}\` | ${STAFF_ROLES.map((r) => (holders.includes(r) ? '✓' : '')).join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** Every admin route with the permission it declares. */
function routeTable(): string {
  const rows = routes.map((r) => `| \`${nameOf(r)}\` | \`${r.permission ?? '(none)'}\` |`);
  return ['| route | permission |', '| --- | --- |', ...rows].join('\n');
}

function generated(doc: string, name: string, body: string): string {
  const start = `<!-- generated: ${name} -->`;
  const end = `<!-- end: ${name} -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/roles.md has no ${start} … ${end} block`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

describe('the route × role matrix', () => {
  it('has every admin route declare a permission that some role holds', () => {
    const bare = routes.filter((r) => !r.permission || !(r.permission in PERMISSION_ROLES));
    expect(bare.map(nameOf)).toEqual([]);
    expect(routes.length).toBeGreaterThan(50);
  });

  it('refuses each role exactly where its roles lack the route’s permission', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      for (const role of STAFF_ROLES) {
        const member = staff.get(role);
        if (!member || !route.permission) throw new Error('set-up failed');
        const res = await send(route, member.cookie);
        const allowed = rolesAllow([role], route.permission);
        if (refusedForRole(res) === allowed) {
          wrong.push(
            `${nameOf(route)} as ${role}: expected ${allowed ? 'to pass the gate' : 'a 403'}, got ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);

  it('adds up a staff member’s roles: support and approver together read chat and settings, not the audit log', async () => {
    const both = await verifiedAdmin(t, ['support', 'approver']);
    const chat = await call(t, { url: '/api/admin/chat/rooms', cookie: both.cookie });
    expect(chat.statusCode).toBe(200);
    const settings = await call(t, { url: '/api/admin/settings', cookie: both.cookie });
    expect(settings.statusCode).toBe(200);
    const audit = await call(t, { url: '/api/admin/audit', cookie: both.cookie });
    expect(refusedForRole(audit)).toBe(true);
  });

  it('is documented as it is in docs/roles.md', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    const wanted = generated(
      generated(doc, 'permissions', permissionTable()),
      'routes',
      routeTable(),
    );
    if (process.env.UPDATE_ROLES_DOC === '1') fs.writeFileSync(DOC, wanted);
    expect(doc, 'run UPDATE_ROLES_DOC=1 npx vitest run apps/server/test/roles-matrix.test.ts').toBe(
      wanted,
    );
  });
});
