import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { call, type SignedInUser, type TestApp } from './helpers';
import { stepUpFor } from './money-helpers';

/**
 * PUT /api/admin/settings as the settings screen sends it, with a fresh second factor
 * (give the admin codes with `spareStepUps` first). 200: applied; 202: some of it waits
 * for another admin (four eyes).
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
 * Saves settings as two admins do: `proposer` saves, and `approver` approves whatever the
 * save proposed. Every value is then applied.
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
}
