/** Health probes and metrics: their front door (see ../README.md). */
export { healthRoutes, registerRequestMetrics } from './health.routes';
export { createHealth, type Health, type Readiness } from './health.service';
export {
  JOB_MAX_FAILURES_IN_A_ROW,
  OUTBOX_MAX_OVERDUE_SECONDS,
  PRICE_MAX_AGE_SECONDS,
} from './health-checks';
