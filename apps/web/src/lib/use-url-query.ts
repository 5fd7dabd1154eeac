import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

type Value = string | number | undefined;

const NONE: readonly string[] = [];

/**
 * A screen's search, filters and page kept in the address bar, so that a reload, a shared
 * link or Back shows the same rows. `schema` is the shared zod schema the server checks the
 * same parameters with; `defaults` are the values the address leaves out. A link the schema
 * refuses gives the defaults and the reason, for the screen to say so.
 */
export function useUrlQuery<S extends z.ZodType<Record<string, Value>>>(
  schema: S,
  defaults: z.infer<S>,
  /** Parameters of the page that are not this query's (a tab), kept as they are. */
  keep: readonly string[] = NONE,
) {
  const [params, setParams] = useSearchParams();
  const parsed = useMemo(() => {
    const raw: Record<string, string> = {};
    for (const [key, value] of params) if (!keep.includes(key)) raw[key] = value;
    const result = schema.safeParse(raw);
    return result.success
      ? { query: result.data, error: null }
      : { query: defaults, error: result.error.issues[0]?.message ?? 'This link is not valid.' };
  }, [params, schema, defaults, keep]);

  /**
   * Changes some values; a change of anything but the cursor starts again from the first
   * page. A new page goes into the history (Back returns to the last one); filters and
   * typing replace the entry.
   */
  const set = useCallback(
    (change: Partial<z.infer<S>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams();
          for (const key of keep) {
            const value = current.get(key);
            if (value !== null) next.set(key, value);
          }
          const merged: Record<string, Value> = { ...parsed.query, ...change };
          if (!('cursor' in change)) merged.cursor = undefined;
          for (const [key, value] of Object.entries(merged)) {
            if (value === undefined || value === '' || value === defaults[key]) continue;
            next.set(key, String(value));
          }
          return next;
        },
        { replace: !('cursor' in change) },
      );
    },
    [setParams, parsed.query, defaults, keep],
  );

  /** Back to the defaults: no search, no filter, the first page. */
  const reset = useCallback(() => set({ ...defaults, cursor: undefined }), [set, defaults]);

  return { query: parsed.query, error: parsed.error, set, reset };
}
