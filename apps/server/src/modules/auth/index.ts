/** Sign-up, sign-in and passwords: their front door (see ../README.md). */
export { authRoutes } from './auth.routes';
export { type AuthService, type Client, createAuthService } from './auth.service';
export { createUsers, type Users } from './users';
