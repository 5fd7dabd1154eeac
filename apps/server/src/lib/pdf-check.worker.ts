import { parentPort } from 'node:worker_threads';
import { scanPdf } from './pdf-scan';

/** One PDF at a time from the pool in pdf-check.ts; the verdict goes back with its id. */
parentPort?.on('message', (job: { id: number; bytes: Uint8Array }) => {
  parentPort?.postMessage({ id: job.id, verdict: scanPdf(job.bytes) });
});
