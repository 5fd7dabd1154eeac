/*
 * Kept apart from the zod schemas: the web app's API client reads these on every page,
 * public ones included, and must not pull the schemas (and zod) into that first chunk.
 */

/**
 * On every response to a request that carried a live session: the seconds until it ends
 * unless used again. A request with SESSION_BACKGROUND_HEADER: 1 does not slide it.
 */
export const SESSION_EXPIRES_HEADER = 'x-session-expires-in';
export const SESSION_BACKGROUND_HEADER = 'x-coffer-background';
