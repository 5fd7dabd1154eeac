import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { call, type SignedInUser, type TestApp } from './helpers';
import { stepUpFor } from './money-helpers';

/**
 * PUT /api/admin/settings as the settings screen sends it, with a fresh second factor
 * (give the admin codes with `spareStepUps` first). Every change is proposed (202, in
 * `pending`) for another staff member to approve, but pulling a money stop
 * (`withdrawals_enabled`/`deposits_enabled` false, `maintenance_mode` true), which applies at
 * once (200 when nothing else was asked).
 */
export function putSettings(
  t: TestApp,
  admin: SignedInUser,
  values: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return call(t, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie: admin.cookie,
    body: { values, stepUp: stepUpFor(admin) },
  });
}

/** Approves a proposed setting change as `admin`, with a fresh second factor. */
export function approveChange(
  t: TestApp,
  admin: SignedInUser,
  id: string,
): Promise<LightMyRequestResponse> {
  return call(t, {
    method: 'POST',
    url: `/api/admin/settings/changes/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });
}

/**
 * Changes settings as two staff members do: `proposer` saves, and `approver` (another staff
 * member holding `changes.approve`) approves whatever the save proposed. Every value is then
 * applied: the helper checks it. A test that is not about settings may write one directly
 * instead (`setSetting` of money-helpers, with the listener stopped).
 */
export async function saveSettings(
  t: TestApp,
  proposer: SignedInUser,
  approver: SignedInUser,
  values: Record<string, string>,
): Promise<void> {
  const res = await putSettings(t, proposer, values);
  expect([200, 202], res.body).toContain(res.statusCode);
  for (const change of res.json().pending as Array<{ id: string }>) {
    const approved = await approveChange(t, approver, change.id);
    expect(approved.statusCode, approved.body).toBe(200);
  }
  const { rows } = await t.services.pool.query<{ key: string; value: string }>(
    'SELECT setting_key AS key, setting_value AS value FROM app_settings WHERE setting_key = ANY($1)',
    [Object.keys(values)],
  );
  expect(Object.fromEntries(rows.map((r) => [r.key, r.value]))).toEqual(values);
}
