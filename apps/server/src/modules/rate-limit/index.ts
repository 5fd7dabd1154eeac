/** Rate limits: their front door (see ../README.md). */
export {
  type Attempt,
  createRateLimiter,
  LIMITS,
  type Limit,
  type RateLimiter,
} from './rate-limiter';
export {
  createSignInDevices,
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_S,
  DEVICE_COOKIE_PATH,
  type SignInDevices,
} from './sign-in-devices';
