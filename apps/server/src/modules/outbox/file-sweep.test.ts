import type { TChatMessage, TChatRoom } from '@coffer/shared';
import {
  call,
  createTestApp,
  type SignedInUser,
  storedFileKeys,
  type TestApp,
  verifiedCustomer,
} from '@server-test/helpers';
import { realPng } from '@server-test/image-fixtures';
import { type FilePart, multipart } from '@server-test/multipart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_MIN_AGE_MS } from '.';

let t: TestApp;
let customer: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  customer = await verifiedCustomer(t);
});
afterAll(async () => {
  await t.close();
});

function post(url: string, fields: Record<string, string>, files: FilePart[]) {
  const body = multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: customer.cookie, origin: t.origin, 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** Every stored file's key. */
function storedKeys(): Promise<string[]> {
  return storedFileKeys(t);
}

/** Makes a stored file look as if it was written `ms` ago. */
async function age(key: string, ms: number) {
  await t.services.pool.query(
    'UPDATE stored_files SET modified_at = now() - make_interval(secs => $2) WHERE key = $1',
    [key, ms / 1000],
  );
}

describe('sweep of stored files no row names', () => {
  it('removes an hour-old orphan and keeps referenced and young files', async () => {
    // Referenced: a KYC document and a chat attachment, uploaded as a customer does.
    const kyc = await post(
      '/api/kyc',
      { fullName: 'Ada Lovelace', phoneNumber: '+61 400 000 000', address: '1 Main St' },
      [{ field: 'front', filename: 'id.png', bytes: realPng(), type: 'image/png' }],
    );
    expect(kyc.statusCode).toBe(200);
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: customer.cookie, body: {} })
    ).json().room as TChatRoom;
    const sent = await post(`/api/chat/rooms/${room.id}/attachments`, { text: '' }, [
      { field: 'files', filename: 'note.txt', bytes: Buffer.from('note'), type: 'text/plain' },
    ]);
    expect(sent.statusCode).toBe(200);
    const referenced = await storedKeys();
    expect(referenced).toHaveLength(2);

    // Left by crashes: an upload whose row never committed, and a half-written temporary
    // file; both old. A young orphan may still be waiting for its row. A file outside the
    // upload folders is not the sweep's to judge.
    const { files } = t.services;
    const orphan = `kyc-documents/${customer.userId}/front-1700000000000-lost.png`;
    const tmp = `chat-files/${room.id}/1700000000000-ab12cd34-x.txt.0123456789ab.tmp`;
    const young = `chat-images/${room.id}/1700000000001-ab12cd34-new.png`;
    const elsewhere = 'exports/report.csv';
    for (const key of [orphan, tmp, young, elsewhere]) await files.put(key, Buffer.from(key));
    for (const key of [...referenced, orphan, tmp, elsewhere])
      await age(key, ORPHAN_MIN_AGE_MS + 60_000);
    await age(young, ORPHAN_MIN_AGE_MS - 60_000);

    const removed = await t.services.fileSweep.run();
    expect(removed.sort()).toEqual([tmp, orphan].sort());
    expect(await storedKeys()).toEqual([...referenced, young, elsewhere].sort());

    // The customer still has their document and their attachment.
    expect(
      (await call(t, { url: '/api/kyc/documents/front', cookie: customer.cookie })).statusCode,
    ).toBe(200);
    const messages = await call(t, {
      url: `/api/chat/rooms/${room.id}/messages`,
      cookie: customer.cookie,
    });
    const attachment = (messages.json().messages as TChatMessage[]).find((m) => m.file);
    const own = await call(t, {
      url: `/api/chat/files/${attachment?.id}`,
      cookie: customer.cookie,
    });
    expect(own.body).toBe('note');

    // The young orphan goes once it is old enough.
    await age(young, ORPHAN_MIN_AGE_MS + 60_000);
    expect(await t.services.fileSweep.run()).toEqual([young]);
  });
});
