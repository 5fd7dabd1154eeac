/**
 * Where the browser suite's server listens and keeps its data. Overridable so that two
 * suites can run side by side on one machine (E2E_PORT, E2E_PG_PORT, E2E_DATA_DIR, and E2E_OUTPUT_DIR in playwright.config.ts).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 54390);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? 'test-results/e2e-data';
