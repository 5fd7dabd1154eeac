import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import {
  CHAT_MSG,
  STEP_UP_MSG,
  type TAdminChatRoom,
  type TChatMessage,
  type TChatRoom,
} from '@coffer/shared';
import { MAX_UPLOAD_BYTES, SNIFF_MESSAGES } from '@server/lib/file-sniff';
import { pdfChecksInFlight } from '@server/lib/pdf-check';
import {
  call,
  createTestApp,
  errorOf,
  newSession,
  type SignedInUser,
  storedFileKeys,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import {
  claimingSize,
  GPS_MARKERS,
  jpegWithGps,
  pngWithMetadata,
  realJpeg,
  realPng,
  realWebp,
  webpWithMetadata,
  XMP_PACKET,
} from '@server-test/image-fixtures';
import { setSetting, spareStepUps, stepUpFor } from '@server-test/money-helpers';
import { type FilePart, multipart } from '@server-test/multipart';
import { CATALOG, hostilePdfs, obj, pdfOf, streamObj } from '@server-test/pdf-fixtures';
import { type Instance, secondInstance, serve, subscribed } from '@server-test/realtime-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let admin: SignedInUser;
let aliceRoom: TChatRoom;
let server: Instance;

beforeAll(async () => {
  t = await createTestApp();
  server = await serve(t.app, t.services);
  alice = await verifiedCustomer(t);
  bob = await verifiedCustomer(t);
  // Each close is confirmed with a fresh second factor: unused backup codes to spend.
  admin = await spareStepUps(t, await verifiedAdmin(t));
  const res = await call(t, {
    method: 'POST',
    url: '/api/chat/rooms',
    cookie: alice.cookie,
    body: {},
  });
  aliceRoom = res.json().room;
});
afterAll(async () => {
  await t.services.listener.stop();
  await t.close();
});

function upload(
  cookie: string,
  url: string,
  text: string,
  files: FilePart[],
  origin: string = t.origin,
) {
  const body = multipart({ text }, files);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, origin, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const file = (filename: string, bytes: Buffer | string): FilePart => ({
  field: 'files',
  filename,
  bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
});

/** Every file stored under the chat prefixes, as keys. */
function storedFiles(): Promise<string[]> {
  return storedFileKeys(t, ['chat-images', 'chat-files']);
}

const say = (cookie: string, base: string, roomId: string, text: string) =>
  call(t, { method: 'POST', url: `${base}/rooms/${roomId}/messages`, cookie, body: { text } });

describe('a conversation between a customer and support', () => {
  it('carries messages both ways with read marks and unread counts', async () => {
    const sent = await say(
      alice.cookie,
      '/api/chat',
      aliceRoom.id,
      '  My deposit has not arrived.  ',
    );
    expect(sent.statusCode).toBe(200);
    const [mine] = sent.json().messages as TChatMessage[];
    expect(mine).toMatchObject({ senderType: 'user', messageText: 'My deposit has not arrived.' });

    const list = await call(t, { url: '/api/admin/chat/rooms', cookie: admin.cookie });
    const seen = (list.json().rooms as TAdminChatRoom[]).find((r) => r.id === aliceRoom.id);
    expect(seen).toMatchObject({
      unreadCount: 1,
      status: 'active',
      customer: { email: alice.email },
    });

    const read = await call(t, {
      method: 'POST',
      url: `/api/admin/chat/rooms/${aliceRoom.id}/read`,
      cookie: admin.cookie,
      body: {},
    });
    expect(read.statusCode).toBe(200);
    const after = await call(t, { url: '/api/admin/chat/rooms', cookie: admin.cookie });
    expect(
      (after.json().rooms as TAdminChatRoom[]).find((r) => r.id === aliceRoom.id)?.unreadCount,
    ).toBe(0);

    const mailsBefore = t.mails().length;
    expect(
      (await say(admin.cookie, '/api/admin/chat', aliceRoom.id, 'We are on it.')).statusCode,
    ).toBe(200);
    const rooms = await call(t, { url: '/api/chat/rooms', cookie: alice.cookie });
    expect(rooms.json().rooms).toEqual([
      expect.objectContaining({ id: aliceRoom.id, unreadCount: 1 }),
    ]);
    const messages = await call(t, {
      url: `/api/chat/rooms/${aliceRoom.id}/messages`,
      cookie: alice.cookie,
    });
    expect(
      (messages.json().messages as TChatMessage[]).map((m) => [
        m.senderType,
        m.messageText,
        m.isRead,
      ]),
    ).toEqual([
      ['user', 'My deposit has not arrived.', true],
      ['admin', 'We are on it.', false],
    ]);

    // Alice had no socket open: she is told by mail, once per room and window, without the text.
    const mails = t.mails().slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${alice.email}`);
    expect(mails[0]).toContain('/dashboard/chat');
    expect(mails[0]).not.toContain('We are on it.');
    await say(admin.cookie, '/api/admin/chat', aliceRoom.id, 'Still checking.');
    expect(t.mails().length).toBe(mailsBefore + 1);

    await call(t, {
      method: 'POST',
      url: `/api/chat/rooms/${aliceRoom.id}/read`,
      cookie: alice.cookie,
      body: {},
    });
    const cleared = await call(t, { url: '/api/chat/rooms', cookie: alice.cookie });
    expect(cleared.json().rooms[0].unreadCount).toBe(0);

    const audit = await t.services.pool.query(
      `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`,
      [aliceRoom.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['chat.message.send', 'chat.message.send']);
  });

  it('sends no mail to a customer who has the app open', async () => {
    {
      const carol = await verifiedCustomer(t);
      const socket = await subscribed(server.url, carol.cookie);
      const room = (
        await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: carol.cookie, body: {} })
      ).json().room;
      const before = t.mails().length;
      await say(admin.cookie, '/api/admin/chat', room.id, 'Hello Carol');
      await socket.next((e) => e.type === 'chat.message' && e.roomId === room.id);
      expect(t.mails().length).toBe(before);
      socket.close();
    }
  });

  it('lets an admin start a chat with a chosen customer, and finds their room again', async () => {
    const dave = await verifiedCustomer(t);
    const first = await call(t, {
      method: 'POST',
      url: '/api/admin/chat/rooms',
      cookie: admin.cookie,
      body: { userId: dave.userId },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().room.customer.email).toBe(dave.email);
    const again = await call(t, {
      method: 'POST',
      url: '/api/admin/chat/rooms',
      cookie: admin.cookie,
      body: { userId: dave.userId },
    });
    expect(again.json().room.id).toBe(first.json().room.id);
    const own = await call(t, { url: '/api/chat/rooms', cookie: dave.cookie });
    expect(own.json().rooms.map((r: TChatRoom) => r.id)).toEqual([first.json().room.id]);
    const notCustomer = await call(t, {
      method: 'POST',
      url: '/api/admin/chat/rooms',
      cookie: admin.cookie,
      body: { userId: admin.userId },
    });
    expect(notCustomer.statusCode).toBe(404);
  });

  it('refuses an empty or whitespace message and changes nothing', async () => {
    for (const text of ['', '   \n\t ']) {
      const res = await withoutChange(t, () => say(alice.cookie, '/api/chat', aliceRoom.id, text));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('Please type a message or attach a file.');
    }
  });
});

describe('attachments', () => {
  it('takes images, PDF, TXT and JSON at once and serves them privately to the room only', async () => {
    const pdf = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
    const res = await upload(
      alice.cookie,
      `/api/chat/rooms/${aliceRoom.id}/attachments`,
      'Statements',
      [
        file('screenshot.png', realPng()),
        file('statement.pdf', pdf),
        file('notes.txt', 'tx 0xabc'),
        file('export.json', '{"ok":true}'),
      ],
    );
    expect(res.statusCode).toBe(200);
    const sent = res.json().messages as TChatMessage[];
    expect(sent.map((m) => [m.messageText, m.file?.name ?? null, m.file?.type ?? null])).toEqual([
      ['Statements', null, null],
      ['', 'screenshot.png', 'image/png'],
      ['', 'statement.pdf', 'application/pdf'],
      ['', 'notes.txt', 'text/plain'],
      ['', 'export.json', 'application/json'],
    ]);
    expect((await storedFiles()).filter((f) => f.startsWith('chat-images/'))).toHaveLength(1);
    expect((await storedFiles()).filter((f) => f.startsWith('chat-files/'))).toHaveLength(3);
    for (const f of await storedFiles())
      expect(
        f.startsWith(`chat-images/${aliceRoom.id}/`) || f.startsWith(`chat-files/${aliceRoom.id}/`),
      ).toBe(true);

    const png = sent[1] as TChatMessage;
    const own = await call(t, { url: `/api/chat/files/${png.id}`, cookie: alice.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(realPng())).toBe(true);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(own.headers['content-disposition']).toContain('screenshot.png');

    const staff = await call(t, {
      url: `/api/admin/chat/files/${sent[2]?.id}`,
      cookie: admin.cookie,
    });
    expect(staff.statusCode).toBe(200);
    expect(staff.headers['content-disposition']).toMatch(/^attachment/);

    const foreign = await call(t, { url: `/api/chat/files/${png.id}`, cookie: bob.cookie });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.rawPayload.includes(realPng().subarray(0, 16))).toBe(false);
  });

  const abuse: [string, FilePart, string][] = [
    [
      'HTML renamed .png',
      file('cat.png', '<html><script>alert(1)</script></html>'),
      'This type of file is not accepted.',
    ],
    [
      'SVG renamed .png',
      file('logo.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'This type of file is not accepted.',
    ],
    [
      'a script in a PDF',
      file(
        'bill.pdf',
        '%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF',
      ),
      'This PDF contains scripts or automatic actions and cannot be accepted.',
    ],
    [
      '10 MB + 1 byte',
      file('big.txt', Buffer.alloc(10 * 1024 * 1024 + 1, 0x61)),
      'Please upload files smaller than 10MB.',
    ],
    ['a zero-byte file', file('empty.txt', Buffer.alloc(0)), 'The file is empty.'],
  ];
  for (const [name, bad, message] of abuse) {
    it(`refuses ${name} and stores nothing, even beside a good file`, async () => {
      const filesBefore = await storedFiles();
      const res = await withoutChange(t, () =>
        upload(alice.cookie, `/api/chat/rooms/${aliceRoom.id}/attachments`, 'look', [
          file('ok.txt', 'fine'),
          bad,
        ]),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(`${bad.filename}: ${message}`);
      expect(await storedFiles()).toEqual(filesBefore);
    });
  }

  it('refuses an upload from another site', async () => {
    const res = await withoutChange(t, () =>
      upload(
        alice.cookie,
        `/api/chat/rooms/${aliceRoom.id}/attachments`,
        'x',
        [file('a.txt', 'a')],
        'https://evil.example',
      ),
    );
    expect(res.statusCode).toBe(403);
  });
});

/** A new customer with a room of their own: each test below stays within the upload limit. */
async function customerWithRoom(): Promise<{ user: SignedInUser; roomId: string }> {
  const user = await verifiedCustomer(t);
  const res = await call(t, {
    method: 'POST',
    url: '/api/chat/rooms',
    cookie: user.cookie,
    body: {},
  });
  return { user, roomId: res.json().room.id };
}

/** Everything from a JPEG's start-of-scan marker on: the compressed picture itself. */
const entropyData = (jpeg: Buffer) => jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])));

describe('attachments that could be turned against staff or the server', () => {
  it('drops photo metadata exactly as KYC does, leaving the pictures untouched', async () => {
    const { user, roomId } = await customerWithRoom();
    const res = await upload(user.cookie, `/api/chat/rooms/${roomId}/attachments`, '', [
      file('holiday.jpg', jpegWithGps()),
      file('screen.png', pngWithMetadata()),
      file('sticker.webp', webpWithMetadata()),
    ]);
    expect(res.statusCode).toBe(200);
    const [jpeg, png, webp] = await Promise.all(
      (res.json().messages as TChatMessage[]).map(async (m) => {
        const got = await call(t, { url: `/api/chat/files/${m.id}`, cookie: user.cookie });
        expect(got.statusCode).toBe(200);
        return got.rawPayload;
      }),
    );
    for (const bytes of [jpeg, png, webp] as Buffer[]) {
      expect(bytes.includes(GPS_MARKERS.make)).toBe(false);
      expect(bytes.includes(GPS_MARKERS.comment)).toBe(false);
    }
    expect((jpeg as Buffer).includes('Exif')).toBe(false);
    expect(entropyData(jpeg as Buffer)).toEqual(entropyData(realJpeg()));
    expect(png).toEqual(realPng());
    expect((webp as Buffer).includes(XMP_PACKET)).toBe(false);
    expect(webp).toEqual(realWebp());
  });

  it('refuses PDFs that hide scripts or cannot be read, and huge pictures, storing nothing', async () => {
    const { user, roomId } = await customerWithRoom();
    const cases: [string, FilePart, string][] = [
      ...hostilePdfs().map(([what, bytes, reason]): [string, FilePart, string] => [
        what,
        file('statement.pdf', bytes),
        SNIFF_MESSAGES[reason],
      ]),
      [
        'a WebP of 9000 × 9000 pixels',
        file('big.webp', claimingSize('webp', 9000, 9000)),
        'Images larger than 40 megapixels cannot be accepted.',
      ],
    ];
    const filesBefore = await storedFiles();
    for (const [what, bad, message] of cases) {
      const res = await withoutChange(t, () =>
        upload(user.cookie, `/api/chat/rooms/${roomId}/attachments`, 'see attached', [
          file('ok.txt', 'fine'),
          bad,
        ]),
      );
      expect(res.statusCode, what).toBe(400);
      expect(errorOf(res), what).toEqual({
        error: 'VALIDATION_FAILED',
        message: `${bad.filename}: ${message}`,
      });
    }
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('serves text attachments as .txt whatever they were called, without bidi overrides', async () => {
    const { user, roomId } = await customerWithRoom();
    const names = ['run.bat', 'update.hta', 'wallet.js', 'invoice\u202Efdp.exe'];
    const res = await upload(
      user.cookie,
      `/api/chat/rooms/${roomId}/attachments`,
      '',
      names.map((n) => file(n, '@echo off')),
    );
    expect(res.statusCode).toBe(200);
    const sent = res.json().messages as TChatMessage[];
    expect(sent.map((m) => m.file?.name)).toEqual([
      'run.bat',
      'update.hta',
      'wallet.js',
      'invoicefdp.exe',
    ]);
    const served = await Promise.all(
      sent.map((m) => call(t, { url: `/api/admin/chat/files/${m.id}`, cookie: admin.cookie })),
    );
    expect(served.map((r) => r.headers['content-disposition'])).toEqual([
      'attachment; filename=run.txt',
      'attachment; filename=update.txt',
      'attachment; filename=wallet.txt',
      'attachment; filename=invoicefdp.txt',
    ]);
    for (const r of served) expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('serves a PDF sent as invoice.html as invoice.pdf, to staff and to its sender', async () => {
    const { user, roomId } = await customerWithRoom();
    // A valid PDF whose comment holds a page with a script: harmless as a PDF, not as .html.
    const polyglot = Buffer.from(
      '%PDF-1.4\n%<html><script>alert(1)</script></html>\n' +
        '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
        '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    const res = await upload(user.cookie, `/api/chat/rooms/${roomId}/attachments`, '', [
      file('invoice.html', polyglot),
    ]);
    expect(res.statusCode).toBe(200);
    const [sent] = res.json().messages as TChatMessage[];
    // The name is kept as sent; the type is what the bytes are, which names the download.
    expect(sent?.file).toMatchObject({ name: 'invoice.html', type: 'application/pdf' });
    for (const [url, cookie] of [
      [`/api/admin/chat/files/${sent?.id}`, admin.cookie],
      [`/api/chat/files/${sent?.id}`, user.cookie],
    ] as const) {
      const served = await call(t, { url, cookie });
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-disposition']).toBe('attachment; filename=invoice.pdf');
    }
  });

  it('keeps answering while ten hostile PDFs are checked at once', async () => {
    const { user, roomId } = await customerWithRoom();
    const base = server.url.replace(/^ws/, 'http');
    // Five files of nearly 10 MB that are mostly small tokens (a second of parsing each, with a
    // script at the very end) and five bombs: 70 MB of zeros behind three Flate layers.
    const tokens = Array.from(
      { length: 185_000 },
      (_, i) => `${i + 10} 0 obj [1 2 3 4 5 6] endobj`,
    );
    const heavy = pdfOf([...CATALOG, ...tokens, obj(3, '<< /S /JavaScript /JS (x) >>')]);
    const bomb = pdfOf([
      ...CATALOG,
      streamObj(
        3,
        '/Filter [/FlateDecode /FlateDecode /FlateDecode]',
        deflateSync(deflateSync(deflateSync(Buffer.alloc(70 * 1024 * 1024)))),
      ),
    ]);
    expect(heavy.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(heavy.length).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    const files = [...Array(5).fill(heavy), ...Array(5).fill(bomb)].map((bytes, i) =>
      file(`hostile-${i}.pdf`, bytes),
    );
    const body = multipart({ text: '' }, files);

    const health = async () => {
      const res = await fetch(`${base}/api/health`);
      expect(res.status).toBe(200);
    };
    await health();

    // How busy the main thread's event loop was while the checks ran: a check done on it
    // would keep it busy for seconds. Unlike a delay, this does not count the time the
    // machine's other processes (a parallel test file, PostgreSQL) took the CPU while the
    // loop was idle, so it says whether the code blocks, not how loaded the machine is.
    // How fast the probe answers under this load is the benchmark's to say, not a test's.
    const checking = fetch(`${base}/api/chat/rooms/${roomId}/attachments`, {
      method: 'POST',
      headers: { cookie: user.cookie, origin: t.origin, 'content-type': body.contentType },
      body: body.payload,
    });
    let finished = false;
    void checking.finally(() => {
      finished = true;
    });
    while (!finished && pdfChecksInFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const queued = pdfChecksInFlight();
    const checksStarted = performance.eventLoopUtilization();
    let answered = 0;
    while (!finished) {
      await health();
      answered++;
      await new Promise((r) => setTimeout(r, 50));
    }
    const busy = performance.eventLoopUtilization(checksStarted);
    const res = await checking;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      `hostile-0.pdf: ${SNIFF_MESSAGES.active_content}`,
    );
    expect(queued).toBeGreaterThan(1);
    // Several health checks were answered while the files were being checked, and the main
    // thread stayed mostly idle: the checks ran on the workers.
    expect(answered).toBeGreaterThan(3);
    expect(busy.utilization).toBeLessThan(0.5);
  }, 60_000);
});

describe('who may use which chat route', () => {
  const customerRoutes = (roomId: string, messageId: string) => [
    { method: 'GET' as const, url: '/api/chat/rooms' },
    { method: 'POST' as const, url: '/api/chat/rooms', body: {} },
    { method: 'GET' as const, url: `/api/chat/rooms/${roomId}/messages` },
    { method: 'POST' as const, url: `/api/chat/rooms/${roomId}/messages`, body: { text: 'hi' } },
    { method: 'POST' as const, url: `/api/chat/rooms/${roomId}/attachments`, body: {} },
    { method: 'POST' as const, url: `/api/chat/rooms/${roomId}/read`, body: {} },
    { method: 'GET' as const, url: `/api/chat/files/${messageId}` },
  ];
  const adminRoutes = (roomId: string, messageId: string) => [
    { method: 'GET' as const, url: '/api/admin/chat/rooms' },
    { method: 'POST' as const, url: '/api/admin/chat/rooms', body: { userId: alice.userId } },
    { method: 'GET' as const, url: `/api/admin/chat/rooms/${roomId}/messages` },
    {
      method: 'POST' as const,
      url: `/api/admin/chat/rooms/${roomId}/messages`,
      body: { text: 'hi' },
    },
    { method: 'POST' as const, url: `/api/admin/chat/rooms/${roomId}/attachments`, body: {} },
    { method: 'POST' as const, url: `/api/admin/chat/rooms/${roomId}/read`, body: {} },
    { method: 'GET' as const, url: `/api/admin/chat/files/${messageId}` },
    {
      method: 'POST' as const,
      url: `/api/admin/chat/rooms/${roomId}/close`,
      body: { stepUp: { code: '000000' } },
    },
  ];

  async function aliceFile(): Promise<string> {
    const res = await upload(alice.cookie, `/api/chat/rooms/${aliceRoom.id}/attachments`, '', [
      file('id.txt', 'secret'),
    ]);
    return (res.json().messages as TChatMessage[])[0]?.id ?? '';
  }

  it('refuses visitors and sessions before 2FA everywhere', async () => {
    const messageId = await aliceFile();
    const unverified = await newSession(t, alice);
    for (const r of [
      ...customerRoutes(aliceRoom.id, messageId),
      ...adminRoutes(aliceRoom.id, messageId),
    ]) {
      const anon = await withoutChange(t, () => call(t, r));
      expect([r.url, anon.statusCode]).toEqual([r.url, 401]);
      const early = await withoutChange(t, () => call(t, { ...r, cookie: unverified }));
      expect([r.url, errorOf(early).error]).toEqual([r.url, 'TWO_FACTOR_REQUIRED']);
    }
  });

  it("never lets a customer read or write another customer's room, messages or files", async () => {
    const messageId = await aliceFile();
    for (const r of customerRoutes(aliceRoom.id, messageId).filter(
      (r) => r.url.includes(aliceRoom.id) || r.url.includes(messageId),
    )) {
      const res = await withoutChange(t, () =>
        r.url.endsWith('/attachments')
          ? upload(bob.cookie, r.url, 'sneaky', [file('x.txt', 'x')])
          : call(t, { ...r, cookie: bob.cookie }),
      );
      expect([r.url, res.statusCode]).toEqual([r.url, 404]);
    }
    const bobRooms = await call(t, { url: '/api/chat/rooms', cookie: bob.cookie });
    expect(bobRooms.json().rooms).toEqual([]);
  });

  it('keeps customers out of every admin chat route', async () => {
    const messageId = await aliceFile();
    for (const r of adminRoutes(aliceRoom.id, messageId)) {
      const res = await withoutChange(t, () => call(t, { ...r, cookie: alice.cookie }));
      expect([r.url, errorOf(res).error]).toEqual([r.url, 'FORBIDDEN']);
    }
  });

  it('lets an admin read any room and its files', async () => {
    const messageId = await aliceFile();
    const msgs = await call(t, {
      url: `/api/admin/chat/rooms/${aliceRoom.id}/messages`,
      cookie: admin.cookie,
    });
    expect(msgs.statusCode).toBe(200);
    const f = await call(t, { url: `/api/admin/chat/files/${messageId}`, cookie: admin.cookie });
    expect(f.body).toBe('secret');
  });
});

/** A customer's conversation holding two attachments, an image and a text file. */
async function roomWithTwoFiles() {
  const customer = await verifiedCustomer(t);
  const room = (
    await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: customer.cookie, body: {} })
  ).json().room as TChatRoom;
  await upload(customer.cookie, `/api/chat/rooms/${room.id}/attachments`, 'see', [
    file('a.png', realPng()),
    file('b.txt', 'b'),
  ]);
  return { customer, room };
}

/** The audit rows of one action about one target, oldest first. */
async function auditRows(action: string, targetId: string) {
  const { rows } = await t.services.pool.query(
    `SELECT actor_id, target_type, target_user_id, before, after FROM audit_log
      WHERE action = $1 AND target_id = $2 ORDER BY id`,
    [action, targetId],
  );
  return rows;
}

const closeRoom = (roomId: string, stepUp: unknown, cookie = admin.cookie) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/chat/rooms/${roomId}/close`,
    cookie,
    body: stepUp === undefined ? {} : { stepUp },
  });

async function messageCount(roomId: string): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1',
    [roomId],
  );
  return rows[0]?.n ?? 0;
}

describe('closing a conversation (staff never delete one)', () => {
  it('is refused without a step-up and with a wrong code, changing nothing', async () => {
    const { room } = await roomWithTwoFiles();
    const none = await withoutChange(t, () => closeRoom(room.id, undefined));
    expect([none.statusCode, errorOf(none)]).toEqual([
      400,
      { error: 'VALIDATION_FAILED', message: STEP_UP_MSG.required },
    ]);
    const wrong = await withoutChange(t, () => closeRoom(room.id, { code: '000000' }));
    expect([wrong.statusCode, errorOf(wrong)]).toEqual([
      400,
      { error: 'INVALID_CODE', message: STEP_UP_MSG.invalid },
    ]);
    expect(await auditRows('chat.room.close', room.id)).toEqual([]);
  }, 60_000);

  it('keeps every message and file, audits the close, and the customer still reads it', async () => {
    const { customer: erin, room } = await roomWithTwoFiles();
    const files = (await storedFiles()).filter((f) => f.includes(room.id));
    expect(files).toHaveLength(2);

    const res = await closeRoom(room.id, stepUpFor(admin));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().room).toMatchObject({ id: room.id, status: 'closed' });
    expect(res.json().room.closedAt).toEqual(expect.any(String));

    // Nothing the customer wrote is gone.
    expect((await storedFiles()).filter((f) => f.includes(room.id))).toEqual(files);
    expect(await messageCount(room.id)).toBe(3);
    const rooms = (await call(t, { url: '/api/chat/rooms', cookie: erin.cookie })).json().rooms;
    expect(rooms).toEqual([expect.objectContaining({ id: room.id, status: 'closed' })]);
    const history = await call(t, {
      url: `/api/chat/rooms/${room.id}/messages`,
      cookie: erin.cookie,
    });
    const messages = history.json().messages as TChatMessage[];
    expect(messages.map((m) => m.messageText || m.file?.name)).toEqual(['see', 'a.png', 'b.txt']);
    const own = messages.find((m) => m.file?.name === 'b.txt');
    expect((await call(t, { url: `/api/chat/files/${own?.id}`, cookie: erin.cookie })).body).toBe(
      'b',
    );

    expect(await auditRows('chat.room.close', room.id)).toEqual([
      {
        actor_id: admin.userId,
        target_type: 'chat_room',
        target_user_id: erin.userId,
        before: { status: 'active' },
        after: { status: 'closed', messagesKept: 3 },
      },
    ]);

    // Closed once: a second close changes nothing, and costs no code.
    const again = await withoutChange(t, () => closeRoom(room.id, stepUpFor(admin)));
    expect([again.statusCode, errorOf(again)]).toEqual([
      409,
      { error: 'CONFLICT', message: CHAT_MSG.alreadyClosed },
    ]);
  }, 60_000);

  it('has no delete route any more: DELETE answers 404 like any unknown route', async () => {
    const { room } = await roomWithTwoFiles();
    const res = await withoutChange(t, () =>
      call(t, {
        method: 'DELETE',
        url: `/api/admin/chat/rooms/${room.id}`,
        cookie: admin.cookie,
        body: {},
      }),
    );
    expect([res.statusCode, errorOf(res).error]).toEqual([404, 'NOT_FOUND']);
    expect(await messageCount(room.id)).toBe(3);
  }, 60_000);

  it('opens again with the customer’s next message', async () => {
    const { customer: gus, room } = await roomWithTwoFiles();
    expect((await closeRoom(room.id, stepUpFor(admin))).statusCode).toBe(200);
    const sent = await say(gus.cookie, '/api/chat', room.id, 'One more question.');
    expect(sent.statusCode, sent.body).toBe(200);
    const rooms = (await call(t, { url: '/api/chat/rooms', cookie: gus.cookie })).json().rooms;
    expect(rooms).toEqual([
      expect.objectContaining({ id: room.id, status: 'active', closedAt: null }),
    ]);
    expect(await messageCount(room.id)).toBe(4);
  }, 60_000);

  it('refuses an unknown room plainly, changing nothing', async () => {
    const res = await withoutChange(t, () =>
      closeRoom('00000000-0000-4000-8000-000000000000', stepUpFor(admin)),
    );
    expect([res.statusCode, errorOf(res)]).toEqual([
      404,
      { error: 'NOT_FOUND', message: CHAT_MSG.roomNotFound },
    ]);
  }, 60_000);
});

describe('staff reading a conversation', () => {
  it('writes one audit row per read of the messages and per attachment, never the content', async () => {
    const { customer: hal, room } = await roomWithTwoFiles();
    const before = (await auditRows('chat.messages.view', room.id)).length;
    const read = await call(t, {
      url: `/api/admin/chat/rooms/${room.id}/messages`,
      cookie: admin.cookie,
    });
    expect(read.statusCode).toBe(200);
    const rows = await auditRows('chat.messages.view', room.id);
    expect(rows.slice(before)).toEqual([
      {
        actor_id: admin.userId,
        target_type: 'chat_room',
        target_user_id: hal.userId,
        before: null,
        after: { messages: 3 },
      },
    ]);

    const txt = (read.json().messages as TChatMessage[]).find((m) => m.file?.name === 'b.txt');
    if (!txt) throw new Error('the text attachment is listed');
    const f = await call(t, { url: `/api/admin/chat/files/${txt.id}`, cookie: admin.cookie });
    expect(f.body).toBe('b');
    expect(await auditRows('chat.file.view', txt.id)).toEqual([
      {
        actor_id: admin.userId,
        target_type: 'chat_message',
        target_user_id: hal.userId,
        before: null,
        after: { roomId: room.id, type: 'text/plain', size: 1 },
      },
    ]);
    // No word of the conversation, nor a file's name, is in the audit log.
    const { rows: all } = await t.services.pool.query(
      `SELECT coalesce(before::text, '') || coalesce(after::text, '') AS facts FROM audit_log
        WHERE action IN ('chat.messages.view', 'chat.file.view') AND target_user_id = $1`,
      [hal.userId],
    );
    for (const r of all) expect(r.facts).not.toMatch(/see|b\.txt|a\.png/);

    // The customer reading their own conversation is not staff: nothing is audited.
    const audited = await t.services.pool.query('SELECT count(*)::int AS n FROM audit_log');
    await call(t, { url: `/api/chat/rooms/${room.id}/messages`, cookie: hal.cookie });
    await call(t, { url: `/api/chat/files/${txt.id}`, cookie: hal.cookie });
    expect((await t.services.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows).toEqual(
      audited.rows,
    );
  }, 60_000);
});

/** Moves a room's closing back by `days` days, as if it had been closed that long ago. */
async function closedDaysAgo(roomId: string, days: number) {
  await t.services.pool.query(
    `UPDATE chat_rooms SET closed_at = now() - make_interval(days => $2) WHERE id = $1`,
    [roomId, days],
  );
}

describe('the retention period of closed conversations', () => {
  it('keeps everything while it is 0, then removes only conversations closed longer ago, audited', async () => {
    const old = await roomWithTwoFiles();
    const recent = await roomWithTwoFiles();
    const open = await roomWithTwoFiles();
    for (const r of [old, recent]) {
      expect((await closeRoom(r.room.id, stepUpFor(admin))).statusCode).toBe(200);
    }
    await closedDaysAgo(old.room.id, 31);
    await closedDaysAgo(recent.room.id, 29);
    // An open conversation is never removed, however old its messages.
    await t.services.pool.query(
      `UPDATE chat_messages SET created_at = now() - interval '400 days' WHERE room_id = $1`,
      [open.room.id],
    );

    // The default, 0, keeps every conversation for ever.
    expect(await t.services.settings.get('chat_retention_days')).toBe('0');
    expect(await withoutChange(t, () => t.services.chat.applyRetention())).toEqual({
      rooms: 0,
      messages: 0,
      files: 0,
    });

    await setSetting(t, 'chat_retention_days', '30');
    try {
      expect(await t.services.chat.applyRetention()).toEqual({ rooms: 1, messages: 3, files: 2 });
      await t.services.outbox.deliver();
      expect(await messageCount(old.room.id)).toBe(0);
      expect((await storedFiles()).filter((f) => f.includes(old.room.id))).toEqual([]);
      expect(
        (await call(t, { url: '/api/chat/rooms', cookie: old.customer.cookie })).json().rooms,
      ).toEqual([]);
      for (const kept of [recent, open]) {
        expect(await messageCount(kept.room.id)).toBe(3);
        expect((await storedFiles()).filter((f) => f.includes(kept.room.id))).toHaveLength(2);
      }

      // One audit row says what went: rooms, customers and counts, not a word of content.
      const rows = await auditRows('chat.retention.remove', 'chat_retention_days');
      expect(rows).toEqual([
        {
          actor_id: null,
          target_type: 'app_setting',
          target_user_id: null,
          before: {
            rooms: [
              {
                roomId: old.room.id,
                customerId: old.customer.userId,
                closedAt: expect.any(String),
                messages: 3,
                files: 2,
              },
            ],
          },
          after: { retentionDays: 30, rooms: 1, messages: 3, files: 2 },
        },
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/see|b\.txt|a\.png/);

      // Nothing more is due: the next run removes nothing and writes no row.
      expect(await withoutChange(t, () => t.services.chat.applyRetention())).toMatchObject({
        rooms: 0,
      });
    } finally {
      await setSetting(t, 'chat_retention_days', '0');
    }
  }, 60_000);

  it('removes no file when its transaction rolls back, and every file once it commits', async () => {
    const { customer: fay, room } = await roomWithTwoFiles();
    expect((await closeRoom(room.id, stepUpFor(admin))).statusCode).toBe(200);
    // Longer ago than the period; the other closed rooms of this file are more recent.
    await closedDaysAgo(room.id, 40);
    const files = (await storedFiles()).filter((f) => f.includes(room.id));
    expect(files).toHaveLength(2);
    const audited = (await auditRows('chat.retention.remove', 'chat_retention_days')).length;
    await setSetting(t, 'chat_retention_days', '35');
    try {
      // The database refuses the room row's removal, after its files were queued for removal
      // and its messages removed in the same transaction.
      await t.services.pool.query(`
        CREATE FUNCTION test_refuse_room_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'room removal refused for this test'; END $$;
        CREATE TRIGGER test_refuse_room_delete_room BEFORE DELETE ON chat_rooms
          FOR EACH ROW WHEN (OLD.id = '${room.id}') EXECUTE FUNCTION test_refuse_room_delete();`);
      try {
        await expect(t.services.chat.applyRetention()).rejects.toThrow(/refused for this test/);
      } finally {
        await t.services.pool.query(`
          DROP TRIGGER test_refuse_room_delete_room ON chat_rooms;
          DROP FUNCTION test_refuse_room_delete();`);
      }
      // Nothing queued survived the rollback: a later delivery removes nothing either.
      await t.services.outbox.deliver();
      expect((await storedFiles()).filter((f) => f.includes(room.id))).toEqual(files);
      expect(await messageCount(room.id)).toBe(3);
      const messages = await call(t, {
        url: `/api/chat/rooms/${room.id}/messages`,
        cookie: fay.cookie,
      });
      expect(messages.json().messages).toHaveLength(3);
      expect(await auditRows('chat.retention.remove', 'chat_retention_days')).toHaveLength(audited);

      expect(await t.services.chat.applyRetention()).toMatchObject({ rooms: 1 });
      await t.services.outbox.deliver();
      expect((await storedFiles()).filter((f) => f.includes(room.id))).toEqual([]);
    } finally {
      await setSetting(t, 'chat_retention_days', '0');
    }
  }, 60_000);
});

describe('two server instances', () => {
  it('deliver a chat message sent through one to a socket on the other, and only to its room', async () => {
    const a = server;
    const b = await secondInstance(t);
    try {
      const aliceOnB = await subscribed(b.url, alice.cookie);
      const bobOnB = await subscribed(b.url, bob.cookie);
      const adminOnA = await subscribed(a.url, admin.cookie);
      const bobRoom = (
        await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: bob.cookie, body: {} })
      ).json().room;
      const sent = (
        await say(admin.cookie, '/api/admin/chat', aliceRoom.id, 'Across instances')
      ).json().messages[0];
      const got = await aliceOnB.next((e) => e.type === 'chat.message');
      expect(got).toEqual({
        type: 'chat.message',
        roomId: aliceRoom.id,
        userId: alice.userId,
        messageId: sent.id,
      });
      const reply = (await say(alice.cookie, '/api/chat', aliceRoom.id, 'Thanks')).json()
        .messages[0];
      await adminOnA.next((e) => e.type === 'chat.message' && e.messageId === reply.id);
      // Bob's own event comes after Alice's on the one channel: his socket got his, not hers.
      await say(bob.cookie, '/api/chat', bobRoom.id, 'Me too');
      await bobOnB.next((e) => e.type === 'chat.message');
      expect(bobOnB.events.every((e) => 'userId' in e && e.userId === bob.userId)).toBe(true);
      expect(bobOnB.events.length).toBeGreaterThan(0);
      for (const s of [aliceOnB, bobOnB, adminOnA]) s.close();
    } finally {
      await b.close();
    }
  });
});
