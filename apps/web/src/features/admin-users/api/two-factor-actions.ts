import type { TAdminTwoFactorState, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { staffQueryOptions } from './get-staff';
import { adminUsersKeys } from './keys';

const base = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/two-factor`;

/** Requiring 2FA needs nothing more; waiving it needs a reason (the server checks). */
export function setTwoFactorRequired(userId: string, required: boolean, reason?: string) {
  return api.post<TAdminTwoFactorState>(`${base(userId)}/required`, {
    required,
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
    mutationFn: (v: { userId: string; required: boolean; reason?: string }) =>
      setTwoFactorRequired(v.userId, v.required, v.reason),
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
 * Issue 12: an admin resets another admin's 2FA (staff never use the recovery phrase). The
 * same endpoint as a customer's Disable 2FA, with the reason the audit log keeps.
 */
export function useResetStaffTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: string; reason: string; stepUp: TStepUp }) =>
      disableTwoFactor(v.userId, v.reason, v.stepUp),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryOptions().queryKey }),
  });
}
