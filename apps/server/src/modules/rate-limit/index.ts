/** Rate limits: their front door (see ../README.md). */
export {
  type Attempt,
  createRateLimiter,
  LIMITS,
  type Limit,
  type RateLimiter,
} from './rate-limiter';
