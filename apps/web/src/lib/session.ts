import type { TSession, TSessionResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { appKeys } from './query-keys';

export async function getSession(): Promise<TSession | null> {
  return (await api.get<TSessionResponse>('/api/session')).session;
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: appKeys.session(), queryFn: getSession, staleTime: 60_000, retry: 1 });

/**
 * How the portal greets the account: "Welcome" in its very first session (the server says so
 * from the sign-in history), "Welcome back" in every one after.
 */
export function greetingFor(session: Pick<TSession, 'firstSignIn'> | null | undefined): string {
  return session?.firstSignIn ? 'Welcome' : 'Welcome back';
}

/** The signed-in user and the state of their second factor, as the server's gate sees it. */
export function useSession() {
  return useQuery(sessionQueryOptions());
}
