import { STAFF_MANAGE_MSG, STAFF_MSG, STEP_UP_MSG, type TStaffRole } from '@coffer/shared';
import {
  call,
  completeTwoFactor,
  createTestApp,
  errorOf,
  linkFromMail,
  mailsTo,
  newSession,
  type SignedInUser,
  sessionCookie,
  sessionWorks,
  signIn,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { spareStepUps, stepUpFor } from '@server-test/money-helpers';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const NEW_PASSWORD = 'Invited-Staff-Pass-42';
/** A route support reads (chat) and one it does not (the payout queue, for treasurers and others). */
const CHAT_READ = '/api/admin/chat/rooms';
const PAYOUTS_READ = '/api/admin/payouts?chain=bitcoin';

let t: TestApp;
/** Every role, as the first admin of an install. */
let owner: SignedInUser;
/** A second owner: the other pair of eyes. */
let owner2: SignedInUser;
/** Approves money and settings, not staff changes. */
let approver: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedAdmin(t);
  owner2 = await verifiedAdmin(t, ['owner']);
  approver = await verifiedAdmin(t, ['approver']);
});
afterAll(async () => {
  await t.close();
});
// Every write carries a fresh second factor: spare backup codes, topped up outside the calls;
// and the sessions' idle timer slid now, so that no refused call inside withoutChange slides it.
beforeEach(async () => {
  for (const a of [owner, owner2, approver]) await spareStepUps(t, a);
  await t.services.pool.query('UPDATE sessions SET last_seen_at = now()');
});

const get = (url: string, by: SignedInUser) => call(t, { url, cookie: by.cookie });

function invite(by: SignedInUser, body: Record<string, unknown>) {
  return call(t, {
    method: 'POST',
    url: '/api/admin/staff/invitations',
    cookie: by.cookie,
    body: { stepUp: stepUpFor(by), ...body },
  });
}

function setRoles(by: SignedInUser, id: string, roles: unknown, proof?: unknown) {
  return call(t, {
    method: 'PUT',
    url: `/api/admin/staff/${id}/roles`,
    cookie: by.cookie,
    body: { roles, stepUp: proof === undefined ? stepUpFor(by) : proof },
  });
}

function remove(by: SignedInUser, id: string, body: unknown = { stepUp: stepUpFor(by) }) {
  return call(t, { method: 'DELETE', url: `/api/admin/staff/${id}`, cookie: by.cookie, body });
}

function decide(id: string, by: SignedInUser, decision: 'approve' | 'reject' = 'approve') {
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${id}/${decision}`,
    cookie: by.cookie,
    body: { stepUp: stepUpFor(by) },
  });
}

async function rolesOf(userId: string): Promise<string[] | null> {
  const { rows } = await t.services.pool.query<{ roles: string[] }>(
    'SELECT roles FROM admin_users WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.roles ?? null;
}

async function auditRows(action: string, targetId?: string) {
  const { rows } = await t.services.pool.query(
    `SELECT actor_id, target_type, target_id, target_user_id, before, after, reason FROM audit_log
      WHERE action = $1 AND ($2::text IS NULL OR target_id = $2) ORDER BY id`,
    [action, targetId ?? null],
  );
  return rows;
}

/** Mails queued by an approval go out with the outbox's next run: run it now. */
const deliverMail = () => t.services.outbox.deliver({ wait: 'all' });

/** A staff member of these roles, with spare step-ups. */
async function staffWith(...roles: TStaffRole[]) {
  return spareStepUps(t, await verifiedAdmin(t, roles));
}

describe('GET /api/admin/staff', () => {
  it('lists every staff member with roles, factors and hold, never a customer or a secret', async () => {
    const customer = await verifiedCustomer(t);
    const support = await staffWith('support');
    const res = await get('/api/admin/staff', owner);
    expect(res.statusCode).toBe(200);
    const staff = res.json().staff as Array<{ id: string }>;
    expect(staff.map((s) => s.id)).toEqual(
      expect.arrayContaining([owner.userId, owner2.userId, approver.userId, support.userId]),
    );
    expect(staff.map((s) => s.id)).not.toContain(customer.userId);
    expect(staff.find((s) => s.id === support.userId)).toEqual({
      id: support.userId,
      email: support.email,
      fullName: null,
      username: null,
      roles: ['support'],
      lastLogin: expect.any(String),
      twoFactorEnabled: true,
      passkeys: 0,
      onHold: false,
      holdUntil: null,
      frozen: false,
    });
    expect(staff.find((s) => s.id === owner.userId)).toMatchObject({
      roles: ['owner', 'approver', 'treasurer', 'compliance', 'support', 'auditor'],
    });
    expect(res.body).not.toContain(support.totpSecret ?? 'no secret');
    // Support does not read the staff.
    const refused = await get('/api/admin/staff', support);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.forbiddenRole });
  });
});

describe('inviting staff', () => {
  it('invite → another owner approves → mail → set password → sign in → role-limited access', async () => {
    const email = 'new.support@example.com';
    const proposed = await invite(owner, {
      email: ' New.Support@Example.com ',
      roles: ['support'],
    });
    expect(proposed.statusCode, proposed.body).toBe(202);
    const { pending } = proposed.json();
    expect(pending).toMatchObject({
      kind: 'staff.invite',
      before: null,
      after: { email, roles: ['support'] },
      proposedBy: { id: owner.userId, email: owner.email },
      subject: null,
      status: 'pending',
    });
    // Nothing exists until it is approved.
    const exists = () =>
      t.services.pool
        .query('SELECT 1 FROM users WHERE email = $1', [email])
        .then((r) => r.rowCount ?? 0);
    expect(await exists()).toBe(0);
    expect((await auditRows('change.propose', pending.id))[0]).toMatchObject({
      actor_id: owner.userId,
      after: { kind: 'staff.invite', email, roles: ['support'] },
    });

    // Neither the proposer nor an approver of money changes approves a staff change.
    const own = await withoutChange(t, () => decide(pending.id, owner));
    expect(errorOf(own)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.ownProposal });
    const notOwner = await withoutChange(t, () => decide(pending.id, approver));
    expect(notOwner.statusCode).toBe(403);
    expect(errorOf(notOwner)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.cannotDecide });
    expect(await exists()).toBe(0);

    const approved = await decide(pending.id, owner2);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().change.status).toBe('approved');
    const { rows } = await t.services.pool.query(
      `SELECT u.id, u.email_verified_at IS NOT NULL AS verified, a.roles, p.two_factor_required
         FROM users u JOIN admin_users a ON a.user_id = u.id JOIN user_profiles p ON p.id = u.id
        WHERE u.email = $1`,
      [email],
    );
    expect(rows).toEqual([
      { id: expect.any(String), verified: true, roles: ['support'], two_factor_required: true },
    ]);
    const invitedId = rows[0].id as string;
    expect((await auditRows('staff.invite', pending.id))[0]).toMatchObject({
      actor_id: owner2.userId,
      after: { email, roles: ['support'], userId: invitedId, proposedBy: owner.userId },
    });

    // No password works before the invitee sets one.
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(401);

    await deliverMail();
    const mail = (mailsTo(t, email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('You are invited to work in the Coffer back office as Support.');
    expect(mail).toContain('72 hours');
    const link = new URL(linkFromMail(mail, t.origin));
    expect(link.pathname).toBe('/set-password');
    const token = link.searchParams.get('token');
    const set = await call(t, {
      method: 'POST',
      url: '/api/security/set-password',
      body: { token, newPassword: NEW_PASSWORD },
    });
    expect(set.statusCode, set.body).toBe(200);
    // The link works once.
    const again = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/security/set-password',
        body: { token, newPassword: `${NEW_PASSWORD}-again` },
      }),
    );
    expect(again.statusCode).toBe(404);

    const signedIn = await signIn(t, email, NEW_PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().session).toMatchObject({
      user: { email, isAdmin: true, staffRoles: ['support'] },
      twoFactor: { required: true, enabled: false, verified: false },
    });
    const invitee: SignedInUser = {
      email,
      password: NEW_PASSWORD,
      cookie: sessionCookie(signedIn),
      userId: invitedId,
      totpSecret: null,
      backupCodes: [],
      seedPhrase: null,
    };
    // Before their 2FA: no back office at all.
    expect((await get(CHAT_READ, invitee)).statusCode).toBe(403);
    const verified = await completeTwoFactor(t, invitee);
    // Staff get no recovery phrase.
    expect(verified.seedPhrase).toBeNull();
    expect((await get(CHAT_READ, verified)).statusCode).toBe(200);
    const treasurers = await get(PAYOUTS_READ, verified);
    expect(treasurers.statusCode).toBe(403);
    expect(errorOf(treasurers)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.forbiddenRole });
  });

  it('refuses an e-mail that has an account (409), bad roles, a missing step-up and a non-owner, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    await withoutChange(t, async () => {
      for (const email of [customer.email, owner2.email.toUpperCase()]) {
        const taken = await invite(owner, { email, roles: ['support'] });
        expect(taken.statusCode, email).toBe(409);
        expect(errorOf(taken)).toEqual({ error: 'CONFLICT', message: STAFF_MANAGE_MSG.emailTaken });
      }
      for (const roles of [[], ['wizard'], 'support', undefined]) {
        const bad = await invite(owner, { email: 'someone@example.com', roles });
        expect(bad.statusCode, JSON.stringify(roles)).toBe(400);
      }
      const noRoles = await invite(owner, { email: 'someone@example.com', roles: [] });
      expect(errorOf(noRoles).message).toBe(STAFF_MSG.noRoles);
      const badEmail = await invite(owner, { email: 'not an e-mail', roles: ['support'] });
      expect(badEmail.statusCode).toBe(400);
      const noProof = await invite(owner, {
        email: 'someone@example.com',
        roles: ['support'],
        stepUp: undefined,
      });
      expect(noProof.statusCode).toBe(400);
      expect(errorOf(noProof)).toEqual({
        error: 'VALIDATION_FAILED',
        message: STEP_UP_MSG.required,
      });
      const wrongProof = await invite(owner, {
        email: 'someone@example.com',
        roles: ['support'],
        stepUp: { code: '000000' },
      });
      expect(wrongProof.statusCode).toBe(400);
      expect(errorOf(wrongProof).error).toBe('INVALID_CODE');
      const byApprover = await invite(approver, {
        email: 'someone@example.com',
        roles: ['support'],
      });
      expect(byApprover.statusCode).toBe(403);
      expect(errorOf(byApprover).message).toBe(STAFF_MSG.forbiddenRole);
    });
  });

  it('checks the address again at approval: taken meanwhile, it is refused and nothing is created', async () => {
    const email = `late-${Date.now()}@example.com`;
    const { pending } = (await invite(owner, { email, roles: ['auditor'] })).json();
    // The address signs up as a customer before the approval.
    const customer = await signUpAndSignIn(t, email);
    const refused = await withoutChange(t, () => decide(pending.id, owner2));
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toEqual({ error: 'CONFLICT', message: STAFF_MANAGE_MSG.emailTaken });
    expect(await rolesOf(customer.userId)).toBeNull();
  });

  it('a newer invitation of the same address replaces the pending one', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const older = (await invite(owner, { email, roles: ['support'] })).json().pending;
    const newer = (await invite(owner2, { email, roles: ['auditor'] })).json().pending;
    const { rows } = await t.services.pool.query(
      'SELECT id, status FROM staff_changes WHERE id = ANY($1::uuid[]) ORDER BY proposed_at',
      [[older.id, newer.id]],
    );
    expect(rows).toEqual([
      { id: older.id, status: 'replaced' },
      { id: newer.id, status: 'pending' },
    ]);
    const stale = await withoutChange(t, () => decide(older.id, owner2));
    expect(errorOf(stale)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.changeDecided });
  });
});

describe('changing roles', () => {
  it('one owner proposes (202); it takes effect only when another owner approves, on the next request', async () => {
    const member = await staffWith('support');
    expect((await get(CHAT_READ, member)).statusCode).toBe(200);
    expect((await get(PAYOUTS_READ, member)).statusCode).toBe(403);

    const proposed = await setRoles(owner, member.userId, ['treasurer', 'treasurer']);
    expect(proposed.statusCode, proposed.body).toBe(202);
    const { pending } = proposed.json();
    expect(pending).toMatchObject({
      kind: 'staff.roles',
      before: { email: member.email, roles: ['support'] },
      after: { email: member.email, roles: ['treasurer'] },
      subject: { id: member.userId, email: member.email },
    });
    // Nothing changed yet: the same session still reads chat and not payouts.
    expect(await rolesOf(member.userId)).toEqual(['support']);
    expect((await get(CHAT_READ, member)).statusCode).toBe(200);
    expect((await get(PAYOUTS_READ, member)).statusCode).toBe(403);

    const approved = await decide(pending.id, owner2);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await rolesOf(member.userId)).toEqual(['treasurer']);
    // The same cookie, the next request: the session look-up read the new roles.
    expect((await get(CHAT_READ, member)).statusCode).toBe(403);
    expect((await get(PAYOUTS_READ, member)).statusCode).toBe(200);
    const session = await get('/api/session', member);
    expect(session.json().session.user.staffRoles).toEqual(['treasurer']);
    expect((await auditRows('staff.roles', pending.id))[0]).toMatchObject({
      actor_id: owner2.userId,
      target_user_id: member.userId,
      before: { email: member.email, roles: ['support'] },
      after: { email: member.email, roles: ['treasurer'], proposedBy: owner.userId },
    });
  });

  it('the staff member concerned never approves a change of their own roles', async () => {
    const third = await staffWith('owner');
    const { pending } = (await setRoles(owner, third.userId, ['owner', 'approver'])).json();
    const refused = await withoutChange(t, () => decide(pending.id, third));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.ownAccount });
    expect(await rolesOf(third.userId)).toEqual(['owner']);
    // Another owner may.
    expect((await decide(pending.id, owner2)).statusCode).toBe(200);
    expect(await rolesOf(third.userId)).toEqual(['owner', 'approver']);
  });

  it('refuses the same roles, no roles, an unknown member, a customer and a non-owner, changing nothing', async () => {
    const member = await staffWith('support');
    const customer = await verifiedCustomer(t);
    await withoutChange(t, async () => {
      const same = await setRoles(owner, member.userId, ['support']);
      expect(same.statusCode).toBe(409);
      expect(errorOf(same)).toEqual({ error: 'CONFLICT', message: STAFF_MANAGE_MSG.sameRoles });
      const none = await setRoles(owner, member.userId, []);
      expect(errorOf(none)).toEqual({ error: 'VALIDATION_FAILED', message: STAFF_MSG.noRoles });
      for (const id of ['00000000-0000-4000-8000-000000000000', customer.userId]) {
        const unknown = await setRoles(owner, id, ['support']);
        expect(unknown.statusCode, id).toBe(404);
        expect(errorOf(unknown).message).toBe(STAFF_MANAGE_MSG.notStaff);
      }
      expect((await setRoles(owner, 'nope', ['support'])).statusCode).toBe(400);
      const byApprover = await setRoles(approver, member.userId, ['auditor']);
      expect(byApprover.statusCode).toBe(403);
      const noProof = await setRoles(owner, member.userId, ['auditor'], null);
      expect(noProof.statusCode).toBe(400);
    });
  });
});

describe('removing staff', () => {
  it('one owner removes at once: a plain account, every session ended, audited', async () => {
    const member = await staffWith('support', 'compliance');
    const otherDevice = await newSession(t, member);
    const res = await remove(owner, member.userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: member.userId, email: member.email, sessionsEnded: 2 });
    expect(await rolesOf(member.userId)).toBeNull();
    expect(await sessionWorks(t, member.cookie)).toBe(false);
    expect(await sessionWorks(t, otherDevice)).toBe(false);
    expect((await auditRows('staff.remove', member.userId))[0]).toEqual({
      actor_id: owner.userId,
      target_type: 'user',
      target_id: member.userId,
      target_user_id: member.userId,
      before: { email: member.email, roles: ['compliance', 'support'] },
      after: { staff: false, sessionsEnded: 2 },
      reason: null,
    });
    // They sign in as a customer now: no back office.
    const back = await signIn(t, member.email, member.password);
    expect(back.json().session.user.isAdmin).toBe(false);
    const { rows } = await t.services.pool.query('SELECT 1 FROM users WHERE id = $1', [
      member.userId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('refuses oneself, an unknown member, a customer, a missing step-up and a non-owner, changing nothing', async () => {
    const member = await staffWith('support');
    const customer = await verifiedCustomer(t);
    await withoutChange(t, async () => {
      const self = await remove(owner, owner.userId);
      expect(self.statusCode).toBe(403);
      expect(errorOf(self)).toEqual({ error: 'FORBIDDEN', message: STAFF_MANAGE_MSG.removeSelf });
      for (const id of ['00000000-0000-4000-8000-000000000000', customer.userId]) {
        const unknown = await remove(owner, id);
        expect(unknown.statusCode, id).toBe(404);
      }
      const noProof = await remove(owner, member.userId, {});
      expect(noProof.statusCode).toBe(400);
      const wrong = await remove(owner, member.userId, { stepUp: { code: '000000' } });
      expect(wrong.statusCode).toBe(400);
      const byApprover = await remove(approver, member.userId);
      expect(byApprover.statusCode).toBe(403);
    });
    expect(await sessionWorks(t, member.cookie)).toBe(true);
  });
});

describe('never without an owner', () => {
  let u: TestApp;
  let only: SignedInUser;
  beforeAll(async () => {
    u = await createTestApp();
    only = await spareStepUps(u, await verifiedAdmin(u, ['owner', 'approver']));
  });
  afterAll(async () => {
    await u.close();
  });

  it('the only owner cannot give up the owner role (409), and nothing changes', async () => {
    const res = await withoutChange(u, () =>
      call(u, {
        method: 'PUT',
        url: `/api/admin/staff/${only.userId}/roles`,
        cookie: only.cookie,
        body: { roles: ['approver'], stepUp: stepUpFor(only) },
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.lastOwner });
  });

  it('removing the last owner is refused (409), judged under the staff rows’ lock', async () => {
    const other = await spareStepUps(u, await verifiedAdmin(u, ['owner']));
    // The acting owner loses the owner role in a transaction still open when the removal
    // starts: the gate read their roles before, the removal waits for the lock and then
    // finds `other` to be the last owner.
    const client = new pg.Client({ connectionString: u.databaseUrl });
    await client.connect();
    try {
      const before = await u.services.pool.query(
        'SELECT user_id, roles FROM admin_users ORDER BY 1',
      );
      await client.query('BEGIN');
      await client.query("UPDATE admin_users SET roles = '{approver}' WHERE user_id = $1", [
        only.userId,
      ]);
      const removal = call(u, {
        method: 'DELETE',
        url: `/api/admin/staff/${other.userId}`,
        cookie: only.cookie,
        body: { stepUp: stepUpFor(only) },
      });
      for (let i = 0; i < 200; i++) {
        const { rows } = await u.services.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await client.query('COMMIT');
      const res = await removal;
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.lastOwner });
      const after = await u.services.pool.query(
        'SELECT user_id, roles FROM admin_users ORDER BY 1',
      );
      expect(after.rows).toEqual(
        before.rows.map((r) => (r.user_id === only.userId ? { ...r, roles: ['approver'] } : r)),
      );
      expect(await sessionWorks(u, other.cookie)).toBe(true);
    } finally {
      await client.end();
    }
  });
});

describe("a staff member's second factor reset takes a second owner", () => {
  const REASON = 'Lost phone; identity checked on a video call';
  const profile = (id: string) =>
    t.services.pool
      .query('SELECT two_factor_enabled FROM user_profiles WHERE id = $1', [id])
      .then((r) => r.rows[0]?.two_factor_enabled as boolean);

  it('compliance proposes from the users screen (202); it applies when an owner approves', async () => {
    const target = await staffWith('support');
    const compliance = await staffWith('compliance');
    const otherDevice = await newSession(t, target);
    const res = await call(t, {
      method: 'POST',
      url: `/api/admin/users/${target.userId}/two-factor/disable`,
      cookie: compliance.cookie,
      body: { reason: REASON, stepUp: stepUpFor(compliance) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { pending } = res.json();
    expect(pending).toMatchObject({
      kind: 'staff.2fa.reset',
      subject: { id: target.userId, email: target.email },
      after: { email: target.email, twoFactorEnabled: false, reason: REASON },
    });
    // Nothing happened yet.
    expect(await profile(target.userId)).toBe(true);
    expect(await sessionWorks(t, target.cookie)).toBe(true);
    // Compliance decides no staff change; nor does the approver of money.
    expect((await withoutChange(t, () => decide(pending.id, compliance))).statusCode).toBe(403);
    expect((await withoutChange(t, () => decide(pending.id, approver))).statusCode).toBe(403);

    const approved = await decide(pending.id, owner);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await profile(target.userId)).toBe(false);
    expect(await sessionWorks(t, target.cookie)).toBe(false);
    expect(await sessionWorks(t, otherDevice)).toBe(false);
    const secrets = await t.services.pool.query(
      'SELECT 1 FROM user_two_factor WHERE user_id = $1',
      [target.userId],
    );
    expect(secrets.rowCount).toBe(0);
    expect(await auditRows('admin.2fa.reset', pending.id)).toEqual([
      {
        actor_id: owner.userId,
        target_type: 'staff_change',
        target_id: pending.id,
        target_user_id: target.userId,
        before: { email: target.email, twoFactorEnabled: true },
        after: {
          email: target.email,
          twoFactorEnabled: false,
          reason: REASON,
          sessionsEnded: 2,
          proposedBy: compliance.userId,
        },
        reason: `Reset the second factor of ${target.email}: ${REASON}`,
      },
    ]);
    const { rows } = await t.services.pool.query(
      "SELECT 1 FROM security_events WHERE user_id = $1 AND kind = 'two-factor-reset-by-staff'",
      [target.userId],
    );
    expect(rows).toHaveLength(1);
    await deliverMail();
    const mail = (mailsTo(t, target.email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('Another Coffer admin reset two-factor authentication');
    expect(mail).toContain('/freeze?token=');
    // The restored staff member signs in with their password and sets a new factor up; the
    // hold keeps them from changing anything meanwhile.
    const back = await newSession(t, target);
    const restored = await completeTwoFactor(t, { ...target, cookie: back });
    const hold = await call(t, { url: '/api/security/hold', cookie: restored.cookie });
    expect(hold.json()).toMatchObject({ onHold: true });
    const listed = (await get('/api/admin/staff', owner)).json().staff as Array<{
      id: string;
      onHold: boolean;
      holdUntil: string | null;
    }>;
    expect(listed.find((s) => s.id === target.userId)).toMatchObject({
      onHold: true,
      holdUntil: expect.any(String),
    });
  });

  it('an owner proposes from the Staff screen; the proposer and the staff member never approve it', async () => {
    const target = await staffWith('owner');
    const customer = await verifiedCustomer(t);
    const reset = (by: SignedInUser, id: string, body?: unknown) =>
      call(t, {
        method: 'POST',
        url: `/api/admin/staff/${id}/two-factor/reset`,
        cookie: by.cookie,
        body: body ?? { reason: REASON, stepUp: stepUpFor(by) },
      });
    await withoutChange(t, async () => {
      const self = await reset(owner, owner.userId);
      expect(self.statusCode).toBe(403);
      expect(errorOf(self)).toEqual({ error: 'FORBIDDEN', message: STAFF_MANAGE_MSG.resetSelf });
      const notStaff = await reset(owner, customer.userId);
      expect(notStaff.statusCode).toBe(404);
      expect(errorOf(notStaff).message).toBe(STAFF_MANAGE_MSG.notStaff);
      const noReason = await reset(owner, target.userId, { stepUp: stepUpFor(owner) });
      expect(noReason.statusCode).toBe(400);
      const byApprover = await reset(approver, target.userId);
      expect(byApprover.statusCode).toBe(403);
    });
    const res = await reset(owner, target.userId);
    expect(res.statusCode, res.body).toBe(202);
    const { pending } = res.json();
    const own = await withoutChange(t, () => decide(pending.id, owner));
    expect(errorOf(own)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.ownProposal });
    const subject = await withoutChange(t, () => decide(pending.id, target));
    expect(errorOf(subject)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.ownAccount });
    expect(await profile(target.userId)).toBe(true);
    expect((await decide(pending.id, owner2)).statusCode).toBe(200);
    expect(await profile(target.userId)).toBe(false);
    // Reset already: a second proposal is refused.
    const again = await withoutChange(t, () => reset(owner, target.userId));
    expect(again.statusCode).toBe(409);
  });
});
