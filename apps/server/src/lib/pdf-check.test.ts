import { CATALOG, obj, pdfOf } from '@server-test/pdf-fixtures';
import { describe, expect, it } from 'vitest';
import { checkPdf } from './pdf-check';

describe('the PDF check pool', () => {
  it('answers from a worker thread, and a check that runs over is stopped and refused', async () => {
    const clean = pdfOf(CATALOG);
    expect(await checkPdf(clean)).toEqual({ ok: true });
    // 3 MB of small tokens keeps a worker busy far longer than 1 ms.
    const slow = pdfOf([...CATALOG, obj(3, `[${'1 '.repeat(1_500_000)}]`)]);
    expect(await checkPdf(slow, { timeoutMs: 1 })).toMatchObject({ ok: false, reason: 'timeout' });
    // The terminated worker is replaced: the next files are checked as usual.
    const [again, active] = await Promise.all([
      checkPdf(clean),
      checkPdf(pdfOf([...CATALOG, obj(3, '<< /S /Launch /F (cmd.exe) >>')])),
    ]);
    expect(again).toEqual({ ok: true });
    expect(active).toMatchObject({ ok: false, reason: 'active', detail: '/Launch' });
  });

  it('queues at most 40 files and refuses the rest at once as busy', async () => {
    // Big enough to keep a worker busy for a while, so the queue fills before it drains.
    const slow = pdfOf([...CATALOG, obj(3, `[${'1 '.repeat(300_000)}]`)]);
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => checkPdf(slow)));
    const busy = verdicts.filter((v) => !v.ok && v.reason === 'busy');
    // At most two taken by workers and 40 waiting: the other eight (or more) are refused.
    expect(busy.length).toBeGreaterThanOrEqual(8);
    expect(verdicts.filter((v) => v.ok)).toHaveLength(50 - busy.length);
  }, 60_000);
});
