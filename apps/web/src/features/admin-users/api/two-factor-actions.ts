import type { TAdminTwoFactorState, TProposedResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';
import { staffQueryOptions } from './get-staff';
import { adminUsersKeys } from './keys';

const base = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/two-factor`;

/**
 * Requiring 2FA or waiving it, with the acting staff member's step-up; waiving it also
 * needs a reason (the server checks).
 */
export function setTwoFactorRequired(
  userId: string,
  required: boolean,
  stepUp: TStepUp,
  reason?: string,
) {
  return api.post<TAdminTwoFactorState>(`${base(userId)}/required`, {
    required,
    stepUp,
    ...(reason ? { reason } : {}),
  });
}

/** Removing a factor takes the acting admin's fresh second factor (step-up). */
export function resetTwoFactor(userId: string, recoveryPhrase: string, stepUp: TStepUp) {
  return api.post<TAdminTwoFactorState>(`${base(userId)}/reset`, { recoveryPhrase, stepUp });
}

/** A customer's or another admin's: always with a reason and the admin's step-up. */
export function disableTwoFactor(userId: string, reason: string, stepUp: TStepUp) {
  return api.post<TAdminTwoFactorState>(`${base(userId)}/disable`, { reason, stepUp });
}

/** After any 2FA change the users list is read again. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminUsersKeys.all() });
}

export function useSetTwoFactorRequired() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (v: { userId: string; required: boolean; stepUp: TStepUp; reason?: string }) =>
      setTwoFactorRequired(v.userId, v.required, v.stepUp, v.reason),
    onSettled: invalidate,
  });
}

export function useResetTwoFactor() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (v: { userId: string; recoveryPhrase: string; stepUp: TStepUp }) =>
      resetTwoFactor(v.userId, v.recoveryPhrase, v.stepUp),
    onSettled: invalidate,
  });
}

export function useDisableTwoFactor() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (v: { userId: string; reason: string; stepUp: TStepUp }) =>
      disableTwoFactor(v.userId, v.reason, v.stepUp),
    onSettled: invalidate,
  });
}

/**
 * Issue 12: an owner proposes resetting another staff member's 2FA (staff never use the
 * recovery phrase), with the reason the audit log keeps; another owner approves it (202).
 */
export function resetStaffTwoFactor(userId: string, reason: string, stepUp: TStepUp) {
  return api.post<TProposedResponse>(
    `/api/admin/staff/${encodeURIComponent(userId)}/two-factor/reset`,
    { reason, stepUp },
  );
}

export function useResetStaffTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: string; reason: string; stepUp: TStepUp }) =>
      resetStaffTwoFactor(v.userId, v.reason, v.stepUp),
    onSuccess: () => refreshChanges(queryClient),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryOptions().queryKey }),
  });
}
