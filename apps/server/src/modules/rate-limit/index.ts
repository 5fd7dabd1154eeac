/** Rate limits: their front door (see ../README.md). */
export { createRateLimiter, LIMITS, type Limit, type RateLimiter } from './rate-limiter';
