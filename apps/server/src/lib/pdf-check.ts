import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PdfVerdict } from './pdf-scan';

/**
 * Runs the PDF check (pdf-scan.ts) off the event loop, in worker threads (decision 0012):
 * a hostile PDF costs a worker seconds of CPU, never the server its answers to everyone
 * else.
 *
 * - A small pool, one worker less than the machine has cores (at least one, at most two),
 *   so a burst of uploads queues here instead of starting a heavy thread per file.
 * - Each check has PDF_CHECK_TIMEOUT_MS once a worker takes it; a worker that runs over
 *   is terminated (its file refused) and replaced.
 * - At most MAX_WAITING files wait; past that a file is refused as "busy" at once rather
 *   than holding its request's memory in a queue that only grows.
 */

export const PDF_CHECK_TIMEOUT_MS = 5_000;
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
const MAX_WAITING = 40;
/** A hostile file may make the parser allocate; the worker, not the server, runs out. */
const WORKER_HEAP_MB = 256;

export type PdfCheckVerdict =
  | PdfVerdict
  | { ok: false; reason: 'timeout' | 'busy' | 'crashed'; detail: string };

type Job = {
  id: number;
  bytes: Uint8Array;
  timeoutMs: number;
  done: (verdict: PdfCheckVerdict) => void;
};
type Slot = { worker: Worker | null; job: Job | null; timer: NodeJS.Timeout | null };

/**
 * The server runs its TypeScript through tsx (`node --import tsx`) and its tests through
 * vitest; neither's module loader reaches a worker thread on Node 20 (`--import` in a
 * worker's execArgv does not apply to its entry file there). So the worker is a small
 * script that installs tsx's require hook in its own thread and then loads the .ts worker
 * file, which works the same under both.
 */
const require = createRequire(import.meta.url);
// The compiled server (`npm run build`, decision 0018) has the worker built beside it as
// plain JavaScript, and runs where tsx is not installed.
const compiledWorker = fileURLToPath(new URL('./pdf-check.worker.cjs', import.meta.url));
const workerSource = existsSync(compiledWorker)
  ? `require(${JSON.stringify(compiledWorker)});`
  : [
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`,
      `require(${JSON.stringify(fileURLToPath(new URL('./pdf-check.worker.ts', import.meta.url)))});`,
    ].join('\n');

const waiting: Job[] = [];
const slots: Slot[] = Array.from({ length: POOL_SIZE }, () => ({
  worker: null,
  job: null,
  timer: null,
}));
let nextId = 1;

function finish(slot: Slot, verdict: PdfCheckVerdict): void {
  const job = slot.job;
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  slot.job = null;
  slot.worker?.unref();
  job?.done(verdict);
  pump();
}

/** Drops a worker that ran over or died; the next job starts a fresh one. */
function discard(slot: Slot): void {
  const worker = slot.worker;
  slot.worker = null;
  if (worker) {
    worker.removeAllListeners();
    // An error while terminating is the worker being gone already.
    worker.on('error', () => {});
    void worker.terminate();
  }
}

function start(slot: Slot): Worker {
  const worker = new Worker(workerSource, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // An idle worker never keeps the process alive; a busy one is waited on by its request.
  worker.unref();
  worker.on('message', (message: { id: number; verdict: PdfVerdict }) => {
    if (slot.job?.id === message.id) finish(slot, message.verdict);
  });
  const died = (detail: string) => {
    discard(slot);
    if (slot.job) finish(slot, { ok: false, reason: 'crashed', detail });
  };
  worker.on('error', (err) => died(String(err).slice(0, 200)));
  worker.on('exit', (code) => died(`the check stopped (${code})`));
  return worker;
}

function pump(): void {
  for (const slot of slots) {
    if (slot.job) continue;
    const job = waiting.shift();
    if (!job) return;
    slot.job = job;
    slot.worker ??= start(slot);
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      discard(slot);
      finish(slot, {
        ok: false,
        reason: 'timeout',
        detail: `the check took longer than ${job.timeoutMs} ms`,
      });
    }, job.timeoutMs);
    // The bytes are copied once into a buffer of their own and moved, not cloned.
    const copy = new Uint8Array(job.bytes);
    slot.worker.postMessage({ id: job.id, bytes: copy }, [copy.buffer]);
  }
}

/** PDFs waiting for or under a check now (what a test watches to know checks have begun). */
export function pdfChecksInFlight(): number {
  return waiting.length + slots.filter((slot) => slot.job !== null).length;
}

/** Checks one PDF in a worker; always resolves, with a refusal for anything not clean. */
export function checkPdf(
  bytes: Uint8Array,
  { timeoutMs = PDF_CHECK_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<PdfCheckVerdict> {
  if (waiting.length >= MAX_WAITING) {
    return Promise.resolve({ ok: false, reason: 'busy', detail: 'too many PDFs waiting' });
  }
  return new Promise((resolve) => {
    waiting.push({
      id: nextId++,
      bytes,
      timeoutMs,
      done: (verdict) => {
        resolve(verdict);
      },
    });
    pump();
  });
}
