import { KYC_MSG, STEP_UP_MSG } from '@coffer/shared';
import { SNIFF_MESSAGES } from '@server/lib/file-sniff';
import {
  call,
  createTestApp,
  errorOf,
  mailsTo,
  type SignedInUser,
  signUpAndSignIn,
  storedFileKeys,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import {
  claimingSize,
  GPS_MARKERS,
  jpegMarkers,
  jpegWithGps,
  realPng,
} from '@server-test/image-fixtures';
import { spareStepUps, stepUpFor } from '@server-test/money-helpers';
import { type FilePart, multipart } from '@server-test/multipart';
import { hostilePdfs } from '@server-test/pdf-fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  // Every decision takes a step-up: unused backup codes to spend.
  admin = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
});

const FIELDS = {
  fullName: 'Ada Lovelace',
  phoneNumber: '+61 400 000 000',
  address: '1 Main St\nSydney NSW 2000',
};
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
const front = (bytes: Buffer, filename = 'licence-front.jpg'): FilePart => ({
  field: 'front',
  filename,
  bytes,
  type: 'image/jpeg',
});
const back = (bytes: Buffer, filename = 'licence-back.pdf'): FilePart => ({
  field: 'back',
  filename,
  bytes,
  type: 'application/pdf',
});

function submit(
  cookie: string | undefined,
  fields: Record<string, string>,
  files: FilePart[],
  origin: string | null = t.origin,
) {
  const body = multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/kyc',
    headers: {
      ...(origin ? { origin } : {}),
      ...(cookie ? { cookie } : {}),
      'content-type': body.contentType,
    },
    payload: body.payload,
  });
}

/** Every stored file under the private store, as keys. */
function storedKeys(): Promise<string[]> {
  return storedFileKeys(t);
}

async function kycRow(userId: string) {
  const { rows } = await t.services.pool.query('SELECT * FROM kyc_submissions WHERE user_id = $1', [
    userId,
  ]);
  return rows[0] ?? null;
}

async function auditRows(action: string, targetId: string) {
  const { rows } = await t.services.pool.query(
    'SELECT * FROM audit_log WHERE action = $1 AND target_id = $2 ORDER BY id',
    [action, targetId],
  );
  return rows;
}

/**
 * A decision as the review dialog sends it: with the reviewer's fresh second factor (an
 * unused backup code) unless the body brings its own `stepUp`.
 */
function review(id: string, body: Record<string, unknown>, cookie = admin.cookie) {
  const withProof = 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(admin) };
  return call(t, { method: 'POST', url: `/api/admin/kyc/${id}/review`, cookie, body: withProof });
}

describe('who may use the KYC routes', () => {
  it('refuses anonymous callers, unverified sessions and customers on admin routes', async () => {
    const customer = await verifiedCustomer(t);
    const unverified = await signUpAndSignIn(t);
    const id = '00000000-0000-4000-8000-000000000000';
    const customerRoutes = [
      { method: 'GET' as const, url: '/api/kyc' },
      { method: 'GET' as const, url: '/api/kyc/documents/front' },
      { method: 'GET' as const, url: '/api/kyc/documents/back' },
    ];
    const adminRoutes = [
      { method: 'GET' as const, url: '/api/admin/kyc' },
      { method: 'GET' as const, url: `/api/admin/kyc/${id}` },
      { method: 'GET' as const, url: `/api/admin/kyc/${id}/documents/front` },
      {
        method: 'POST' as const,
        url: `/api/admin/kyc/${id}/review`,
        body: { decision: 'approved' },
      },
    ];
    for (const route of [...customerRoutes, ...adminRoutes]) {
      const anonymous = await call(t, route);
      expect(anonymous.statusCode, route.url).toBe(401);
      const early = await call(t, { ...route, cookie: unverified.cookie });
      expect(early.statusCode, route.url).toBe(403);
      expect(errorOf(early).error).toBe('TWO_FACTOR_REQUIRED');
    }
    for (const route of adminRoutes) {
      const res = await call(t, { ...route, cookie: customer.cookie });
      expect(res.statusCode, route.url).toBe(403);
      expect(errorOf(res).error).toBe('FORBIDDEN');
    }
    expect((await submit(undefined, FIELDS, [front(jpegWithGps())])).statusCode).toBe(401);
    expect((await submit(unverified.cookie, FIELDS, [front(jpegWithGps())])).statusCode).toBe(403);
    // A form posted from another site is refused before anything is read.
    const foreign = await submit(
      customer.cookie,
      FIELDS,
      [front(jpegWithGps())],
      'https://evil.example',
    );
    expect(foreign.statusCode).toBe(403);
    expect(await kycRow(customer.userId)).toBeNull();
    expect(await storedKeys()).toEqual([]);
  });

  it('lets a customer see only their own status and documents', async () => {
    const alice = await verifiedCustomer(t);
    const bob = await verifiedCustomer(t);
    expect((await call(t, { url: '/api/kyc', cookie: bob.cookie })).json()).toEqual({
      submission: null,
      canSubmit: true,
    });
    expect((await submit(alice.cookie, FIELDS, [front(jpegWithGps())])).statusCode).toBe(200);
    const bobStatus = await call(t, { url: '/api/kyc', cookie: bob.cookie });
    expect(bobStatus.json()).toEqual({ submission: null, canSubmit: true });
    // Bob has no document; there is no way to name Alice's.
    const bobDoc = await call(t, { url: '/api/kyc/documents/front', cookie: bob.cookie });
    expect(bobDoc.statusCode).toBe(404);
    const aliceId = (await kycRow(alice.userId)).id;
    for (const url of [
      `/api/admin/kyc/${aliceId}/documents/front`,
      `/api/admin/kyc/${aliceId}`,
      `/api/kyc/documents/front?userId=${alice.userId}`,
      `/api/kyc/documents/..%2F..%2F${alice.userId}%2Ffront`,
    ]) {
      const res = await call(t, { url, cookie: bob.cookie });
      expect(res.statusCode, url).not.toBe(200);
      expect(res.rawPayload.includes(Buffer.from([0xff, 0xd8]))).toBe(false);
    }
    const own = await call(t, { url: '/api/kyc/documents/front', cookie: alice.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    // Alice has no back document.
    expect(
      (await call(t, { url: '/api/kyc/documents/back', cookie: alice.cookie })).statusCode,
    ).toBe(404);
  });
});

describe('submitting KYC', () => {
  it('checks the form in the specified order with the specified messages, storing nothing', async () => {
    const user = await verifiedCustomer(t);
    const files = [front(jpegWithGps())];
    const cases: [Record<string, string>, FilePart[], string][] = [
      [{ ...FIELDS, fullName: '  ' }, [], KYC_MSG.fullNameRequired],
      [{ ...FIELDS, phoneNumber: '' }, [], KYC_MSG.phoneRequired],
      [{ fullName: 'A', phoneNumber: '1' }, files, KYC_MSG.addressRequired],
      [FIELDS, [], KYC_MSG.frontRequired],
      // An empty file input arrives as a nameless empty part: no file.
      [FIELDS, [front(Buffer.alloc(0), '')], KYC_MSG.frontRequired],
      [FIELDS, [back(PDF)], KYC_MSG.frontRequired],
      [
        { ...FIELDS, fullName: 'x'.repeat(201) },
        files,
        'Your full name must be at most 200 characters.',
      ],
    ];
    for (const [fields, parts, message] of cases) {
      const res = await withoutChange(t, () => submit(user.cookie, fields, parts));
      expect(res.statusCode, message).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
    }
    expect((await storedKeys()).filter((k) => k.includes(user.userId))).toEqual([]);
  });

  it('refuses a phone number that is not one, with a clear message, storing nothing', async () => {
    const user = await verifiedCustomer(t);
    const files = [front(jpegWithGps())];
    for (const phoneNumber of [
      'call me',
      '12345',
      '+1 (555)',
      '123456789012345678901',
      '0400.000.000',
      '0400 000 000 ext 12',
      '+61/400/000/000',
      '<b>0400000000</b>',
      '٠٤٠٠٠٠٠٠٠٠',
    ]) {
      const res = await withoutChange(t, () =>
        submit(user.cookie, { ...FIELDS, phoneNumber }, files),
      );
      expect(res.statusCode, phoneNumber).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message: KYC_MSG.phoneInvalid });
    }
    expect((await storedKeys()).filter((k) => k.includes(user.userId))).toEqual([]);
  });

  it.each([
    ['+61 400 000 000'],
    ['(02) 9876-5432'],
    ['+1-202-555-0143'],
    ['123456'],
    ['  +44 (0) 20 7946 0958  '],
    ['12345678901234567890'],
  ])('accepts the phone number %j and stores it trimmed', async (phoneNumber) => {
    const user = await verifiedCustomer(t);
    const res = await submit(user.cookie, { ...FIELDS, phoneNumber }, [front(jpegWithGps())]);
    expect(res.statusCode, res.body).toBe(200);
    const mine = await call(t, { url: '/api/kyc', cookie: user.cookie });
    expect(mine.body).toContain(JSON.stringify(phoneNumber.trim()));
    const { rows } = await t.services.pool.query(
      'SELECT phone_number FROM kyc_submissions WHERE user_id = $1',
      [user.userId],
    );
    expect(rows).toEqual([{ phone_number: phoneNumber.trim() }]);
  });

  it('refuses disguised, scripted, empty and oversized files and stores nothing for them', async () => {
    const user = await verifiedCustomer(t);
    const tenMb = 10 * 1024 * 1024;
    const pngHeader = realPng();
    const abuse: [string, FilePart[], string][] = [
      [
        'HTML named .png',
        [
          front(
            Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>'),
            'id.png',
          ),
        ],
        KYC_MSG.invalidType,
      ],
      [
        'SVG named .png',
        [
          front(
            Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
            'id.png',
          ),
        ],
        KYC_MSG.invalidType,
      ],
      [
        'a script in a .pdf',
        [
          front(
            Buffer.from(
              '%PDF-1.7\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF',
            ),
            'id.pdf',
          ),
        ],
        KYC_MSG.activePdf,
      ],
      [
        'a script in the back .pdf',
        [
          front(jpegWithGps()),
          back(Buffer.from('%PDF-1.7\n<< /AA << /O << /S /JavaScript /JS (x) >> >> >>\n%%EOF')),
        ],
        KYC_MSG.activePdf,
      ],
      [
        '10 MB + 1 byte',
        [front(Buffer.concat([pngHeader, Buffer.alloc(tenMb + 1 - pngHeader.length)]), 'big.png')],
        KYC_MSG.tooLarge,
      ],
      ['zero bytes', [front(Buffer.alloc(0), 'empty.jpg')], KYC_MSG.emptyFile],
      [
        'a text file',
        [front(Buffer.from('my licence number is 123'), 'id.jpg')],
        KYC_MSG.invalidType,
      ],
      [
        'a GIF',
        [front(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'id.gif')],
        KYC_MSG.invalidType,
      ],
    ];
    for (const [what, parts, message] of abuse) {
      const res = await withoutChange(t, () => submit(user.cookie, FIELDS, parts));
      expect(res.statusCode, what).toBe(400);
      expect(errorOf(res).message, what).toBe(message);
    }
    expect(await kycRow(user.userId)).toBeNull();
    expect((await storedKeys()).filter((k) => k.includes(user.userId))).toEqual([]);
    // Exactly 10 MB is allowed.
    const atLimit = Buffer.concat([pngHeader, Buffer.alloc(tenMb - pngHeader.length)]);
    const ok = await submit(user.cookie, FIELDS, [front(atLimit, 'limit.png')]);
    expect(ok.statusCode).toBe(200);
  });

  it('refuses PDFs that hide scripts or cannot be read to the end, and huge pictures, storing nothing', async () => {
    const user = await verifiedCustomer(t);
    const cases: [string, FilePart[], string][] = [
      ...hostilePdfs().map(([what, bytes, reason]): [string, FilePart[], string] => [
        what,
        [front(jpegWithGps()), back(bytes)],
        reason === 'active_content' ? KYC_MSG.activePdf : SNIFF_MESSAGES[reason],
      ]),
      [
        'a JPEG of 8000 × 8000 pixels',
        [front(claimingSize('jpeg', 8000, 8000))],
        'Images larger than 40 megapixels cannot be accepted.',
      ],
      [
        'a PNG of 10000 × 4001 pixels',
        [front(claimingSize('png', 10_000, 4001), 'scan.png')],
        'Images larger than 40 megapixels cannot be accepted.',
      ],
    ];
    for (const [what, parts, message] of cases) {
      const res = await withoutChange(t, () => submit(user.cookie, FIELDS, parts));
      expect(res.statusCode, what).toBe(400);
      expect(errorOf(res), what).toEqual({ error: 'VALIDATION_FAILED', message });
    }
    expect(await kycRow(user.userId)).toBeNull();
    expect((await storedKeys()).filter((k) => k.includes(user.userId))).toEqual([]);
  });

  it('keeps no invisible bidi override in a document name, shown or downloaded', async () => {
    const user = await verifiedCustomer(t);
    // U+202E shows "licence\u202Egpj.exe" to staff as "licenceexe.jpg".
    const res = await submit(user.cookie, FIELDS, [front(jpegWithGps(), 'licence\u202Egpj.exe')]);
    expect(res.statusCode).toBe(200);
    expect(res.json().submission.front).toEqual({ name: 'licencegpj.exe', type: 'image/jpeg' });
    const own = await call(t, { url: '/api/kyc/documents/front', cookie: user.cookie });
    expect(own.headers['content-disposition']).toBe('inline; filename=licencegpj.jpg');
  });

  it('stores the documents privately, with the photo metadata (EXIF, GPS) removed', async () => {
    const user = await verifiedCustomer(t);
    const withGps = jpegWithGps();
    const res = await submit(user.cookie, FIELDS, [
      front(withGps, 'My Licence (front).jpg'),
      back(PDF),
    ]);
    expect(res.statusCode).toBe(200);
    const { submission } = res.json();
    expect(submission).toMatchObject({
      fullName: FIELDS.fullName,
      phoneNumber: FIELDS.phoneNumber,
      address: FIELDS.address,
      status: 'pending',
      canResubmit: false,
      reviewNotes: null,
      front: { name: 'My Licence (front).jpg', type: 'image/jpeg' },
      back: { name: 'licence-back.pdf', type: 'application/pdf' },
    });
    const row = await kycRow(user.userId);
    expect(row.front_document_key).toMatch(
      new RegExp(`^kyc-documents/${user.userId}/front-\\d+-My_Licence_front_.jpg$`),
    );
    expect(row.back_document_key).toMatch(
      new RegExp(`^kyc-documents/${user.userId}/back-\\d+-licence-back.pdf$`),
    );
    const stored = (await t.services.files.get(row.front_document_key)) ?? Buffer.alloc(0);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.includes('Exif')).toBe(false);
    expect(stored.includes(GPS_MARKERS.make)).toBe(false);
    expect(stored.includes(GPS_MARKERS.comment)).toBe(false);
    expect(jpegMarkers(stored).some((m) => m >= 0xe1 && m <= 0xef)).toBe(false);

    const own = await call(t, { url: '/api/kyc/documents/front', cookie: user.cookie });
    expect(own.rawPayload).toEqual(stored);
    expect(own.headers['content-disposition']).toBe('inline; filename="My Licence (front).jpg"');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(own.headers['cache-control']).toBe('private, no-store');
    const pdf = await call(t, { url: '/api/kyc/documents/back', cookie: user.cookie });
    expect(pdf.rawPayload).toEqual(PDF);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename=licence-back.pdf');

    expect((await call(t, { url: '/api/kyc', cookie: user.cookie })).json()).toMatchObject({
      canSubmit: false,
      submission: { id: row.id, status: 'pending' },
    });
  });

  it('announces a submission to live screens when it is saved', async () => {
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN coffer_events');
    const user = await verifiedCustomer(t);
    expect((await submit(user.cookie, FIELDS, [front(jpegWithGps())])).statusCode).toBe(200);
    const row = await kycRow(user.userId);
    await expect
      .poll(() => heard.map((p) => JSON.parse(p)))
      .toContainEqual({ type: 'kyc.changed', userId: user.userId, submissionId: row.id });
    await listener.end();
  });
});

describe('reviewing KYC and resubmitting', () => {
  it('rejects with notes, lets the customer resubmit once, then approves; all audited and mailed', async () => {
    const user = await verifiedCustomer(t);
    expect((await submit(user.cookie, FIELDS, [front(jpegWithGps()), back(PDF)])).statusCode).toBe(
      200,
    );
    const first = await kycRow(user.userId);

    // A second submission while pending is refused and stores nothing.
    const again = await withoutChange(t, () => submit(user.cookie, FIELDS, [front(jpegWithGps())]));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(KYC_MSG.alreadySubmitted);

    // The admin list, newest first when asked (the queue's own order is the oldest first),
    // with the customer's e-mail.
    const list = await call(t, { url: '/api/admin/kyc?order=newest', cookie: admin.cookie });
    expect(list.statusCode).toBe(200);
    const items = list.json().submissions;
    expect(items[0]).toMatchObject({
      id: first.id,
      userId: user.userId,
      email: user.email,
      fullName: FIELDS.fullName,
      phoneNumber: FIELDS.phoneNumber,
      status: 'pending',
    });
    const times = items.map((i: { submittedAt: string }) => i.submittedAt);
    expect([...times].sort().reverse()).toEqual(times);

    const detail = await call(t, { url: `/api/admin/kyc/${first.id}`, cookie: admin.cookie });
    expect(detail.json().submission).toMatchObject({
      address: FIELDS.address,
      reviewer: null,
      front: { type: 'image/jpeg' },
      back: { type: 'application/pdf' },
    });

    // Every look at a document by an admin is in the audit log.
    for (const side of ['front', 'back', 'front']) {
      const doc = await call(t, {
        url: `/api/admin/kyc/${first.id}/documents/${side}`,
        cookie: admin.cookie,
      });
      expect(doc.statusCode).toBe(200);
      expect(doc.headers['x-content-type-options']).toBe('nosniff');
    }
    const views = await auditRows('kyc.document.view', first.id);
    expect(views).toHaveLength(3);
    expect(views[0]).toMatchObject({ actor_id: admin.userId, target_user_id: user.userId });
    expect(views.map((v) => v.after.side)).toEqual(['front', 'back', 'front']);

    // Reject with notes.
    const rejected = await review(first.id, {
      decision: 'rejected',
      notes: '  The photo is blurry.  ',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().submission).toMatchObject({
      status: 'rejected',
      canResubmit: true,
      reviewNotes: 'The photo is blurry.',
      reviewer: { id: admin.userId, email: admin.email },
    });
    const rejectAudit = await auditRows('kyc.reject', first.id);
    expect(rejectAudit).toHaveLength(1);
    expect(rejectAudit[0]).toMatchObject({
      actor_id: admin.userId,
      reason: 'The photo is blurry.',
      before: { status: 'pending', canResubmit: false },
      after: { status: 'rejected', canResubmit: true },
    });
    const rejectMail = mailsTo(t, user.email).at(-1) ?? '';
    expect(rejectMail).toContain('was not approved');
    expect(rejectMail).toContain('The photo is blurry.');
    // A decision is final while it stands.
    const twice = await withoutChange(t, () => review(first.id, { decision: 'approved' }));
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).message).toBe(KYC_MSG.notPending);

    const status = (await call(t, { url: '/api/kyc', cookie: user.cookie })).json();
    expect(status).toMatchObject({
      canSubmit: true,
      submission: { status: 'rejected', canResubmit: true, reviewNotes: 'The photo is blurry.' },
    });

    // Resubmission updates the same row: pending, decision cleared, old documents gone.
    const resubmitted = await submit(user.cookie, { ...FIELDS, fullName: 'Ada King' }, [
      front(realPng(), 'new-front.png'),
    ]);
    expect(resubmitted.statusCode).toBe(200);
    const second = await kycRow(user.userId);
    expect(second).toMatchObject({
      id: first.id,
      full_name: 'Ada King',
      status: 'pending',
      can_resubmit: false,
      review_notes: null,
      reviewed_by: null,
      reviewed_at: null,
      back_document_key: null,
    });
    expect(second.front_document_key).not.toBe(first.front_document_key);
    expect((await storedKeys()).filter((k) => k.includes(user.userId))).toEqual([
      second.front_document_key,
    ]);
    const { rows } = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM kyc_submissions WHERE user_id = $1',
      [user.userId],
    );
    expect(rows[0].n).toBe(1);

    // Once resubmitted, the form is blocked again.
    const third = await submit(user.cookie, FIELDS, [front(realPng())]);
    expect(third.statusCode).toBe(409);

    // Approve.
    const approved = await review(first.id, { decision: 'approved' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().submission).toMatchObject({
      status: 'approved',
      canResubmit: false,
      reviewNotes: null,
    });
    expect(await auditRows('kyc.approve', first.id)).toHaveLength(1);
    expect(mailsTo(t, user.email).at(-1)).toContain('has been approved');
    const after = await submit(user.cookie, FIELDS, [front(realPng())]);
    expect(after.statusCode).toBe(409);
    expect(errorOf(after).message).toBe(KYC_MSG.alreadySubmitted);
    expect((await call(t, { url: '/api/kyc', cookie: user.cookie })).json()).toMatchObject({
      canSubmit: false,
      submission: { status: 'approved' },
    });
  });

  it("takes the reviewer's step-up: refused without one or with a wrong code, changing nothing", async () => {
    const user = await verifiedCustomer(t);
    expect((await submit(user.cookie, FIELDS, [front(realPng())])).statusCode).toBe(200);
    const row = await kycRow(user.userId);

    const none = await withoutChange(t, () =>
      review(row.id, { decision: 'approved', stepUp: undefined }),
    );
    expect([none.statusCode, errorOf(none)]).toEqual([
      400,
      { error: 'VALIDATION_FAILED', message: STEP_UP_MSG.required },
    ]);
    const wrong = await withoutChange(t, () =>
      review(row.id, { decision: 'rejected', notes: 'Blurry.', stepUp: { code: '000000' } }),
    );
    expect([wrong.statusCode, errorOf(wrong)]).toEqual([
      400,
      { error: 'INVALID_CODE', message: STEP_UP_MSG.invalid },
    ]);
    expect(await kycRow(user.userId)).toEqual(row);
    expect(await auditRows('kyc.approve', row.id)).toEqual([]);
    expect(await auditRows('kyc.reject', row.id)).toEqual([]);

    // With a right one the decision is made, once.
    const code = stepUpFor(admin);
    expect((await review(row.id, { decision: 'approved', stepUp: code })).statusCode).toBe(200);
    expect(await auditRows('kyc.approve', row.id)).toHaveLength(1);
  });

  it('keeps the rejected documents when a resubmission fails at its commit, and stores no new file', async () => {
    const user = await verifiedCustomer(t);
    expect((await submit(user.cookie, FIELDS, [front(jpegWithGps()), back(PDF)])).statusCode).toBe(
      200,
    );
    const first = await kycRow(user.userId);
    expect((await review(first.id, { decision: 'rejected', notes: 'Blurry.' })).statusCode).toBe(
      200,
    );
    const rejected = await kycRow(user.userId);
    const filesBefore = await storedKeys();

    // The commit itself fails (a deferred check), after the row was updated and the old
    // documents were queued for removal in the same transaction.
    await t.services.pool.query(`
      CREATE FUNCTION test_refuse_kyc_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'commit refused for this test'; END $$;
      CREATE CONSTRAINT TRIGGER test_refuse_kyc_commit AFTER UPDATE ON kyc_submissions
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.user_id = '${user.userId}') EXECUTE FUNCTION test_refuse_kyc_commit();`);
    try {
      const failed = await submit(user.cookie, FIELDS, [front(realPng(), 'new-front.png')]);
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.services.pool.query(`
        DROP TRIGGER test_refuse_kyc_commit ON kyc_submissions;
        DROP FUNCTION test_refuse_kyc_commit();`);
    }
    await t.services.outbox.deliver();
    expect(await storedKeys()).toEqual(filesBefore);
    expect(await kycRow(user.userId)).toEqual(rejected);
    for (const side of ['front', 'back']) {
      const doc = await call(t, { url: `/api/kyc/documents/${side}`, cookie: user.cookie });
      expect(doc.statusCode).toBe(200);
    }
  });

  it('answers unknown submissions, sides and bad decisions plainly, changing nothing', async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    expect(
      (await call(t, { url: `/api/admin/kyc/${missing}`, cookie: admin.cookie })).statusCode,
    ).toBe(404);
    const doc = await withoutChange(t, () =>
      call(t, { url: `/api/admin/kyc/${missing}/documents/front`, cookie: admin.cookie }),
    );
    expect(doc.statusCode).toBe(404);
    expect(
      (await call(t, { url: '/api/admin/kyc/not-a-uuid', cookie: admin.cookie })).statusCode,
    ).toBe(400);
    const user = await verifiedCustomer(t);
    await submit(user.cookie, FIELDS, [front(jpegWithGps())]);
    const row = await kycRow(user.userId);
    const side = await call(t, {
      url: `/api/admin/kyc/${row.id}/documents/side`,
      cookie: admin.cookie,
    });
    expect(side.statusCode).toBe(400);
    const noBack = await withoutChange(t, () =>
      call(t, { url: `/api/admin/kyc/${row.id}/documents/back`, cookie: admin.cookie }),
    );
    expect(noBack.statusCode).toBe(404);
    for (const body of [
      { decision: 'maybe' },
      {},
      { decision: 'rejected', notes: 'x'.repeat(2001) },
    ]) {
      const res = await withoutChange(t, () => review(row.id, body));
      expect(res.statusCode).toBe(400);
    }
    expect((await review(missing, { decision: 'approved' })).statusCode).toBe(404);
  });
});
