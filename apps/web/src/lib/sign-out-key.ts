/**
 * Lets the public-only pages tell a sign-out in progress from a signed-in visit. Apart from
 * the sign-out itself, so the public pages' gate does not load what signing out needs.
 */
export const SIGN_OUT_KEY = ['sign-out'];
