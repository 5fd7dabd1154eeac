import { safeNextPath } from '@web/lib/safe-next';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'https://coffer.example';
const next = (path: string | null) => safeNextPath(path, ORIGIN);

describe('safeNextPath', () => {
  it('keeps a page of this site, with its query and fragment', () => {
    expect(next('/dashboard/history?type=deposit#top')).toBe('/dashboard/history?type=deposit#top');
    expect(next('/settings')).toBe('/settings');
  });

  it('sends anything that is not a path here to the dashboard', () => {
    for (const bad of [null, '', 'dashboard', 'https://evil.example/', 'javascript:alert(1)']) {
      expect(next(bad), String(bad)).toBe('/dashboard');
    }
    // Back to the sign-in page would loop.
    expect(next('/auth?next=/x')).toBe('/dashboard');
  });

  it('never returns a path that starts with // however it was spelled', () => {
    for (const bad of [
      '//evil.example',
      '/.//evil.example',
      '/..//evil.example',
      '/././/evil.example/path',
      '/a/..//evil.example',
      '/%2e//evil.example',
    ]) {
      const out = next(bad);
      expect(out.startsWith('//'), `${bad} gave ${out}`).toBe(false);
      expect(out, bad).toBe('/dashboard');
    }
  });

  it('never returns a path that starts with /\\ (a browser reads it as //)', () => {
    for (const bad of ['/\\evil.example', '/\\/evil.example', '/.\\\\evil.example']) {
      const out = next(bad);
      expect(/^\/[/\\]/.test(out), `${bad} gave ${out}`).toBe(false);
      expect(out, bad).toBe('/dashboard');
    }
  });

  it('keeps an ordinary path that merely contains slashes further on', () => {
    expect(next('/dashboard//history')).toBe('/dashboard//history');
  });
});
