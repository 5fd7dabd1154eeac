import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type THistoryView, viewOf, viewParams } from '../api/history-view';

/**
 * The History screen's view, kept in the URL's search parameters so that a reload, the
 * Back button or a shared link shows the same page. A filter, search or sort change starts
 * again at the first page and replaces the URL entry; Next and Previous add one, so Back
 * returns to the page before.
 */
export function useHistoryView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewOf(params), [params]);

  const change = useCallback(
    (next: Partial<Omit<THistoryView, 'cursor' | 'before'>>) => {
      setParams(viewParams({ ...viewOf(params), ...next, cursor: undefined, before: undefined }), {
        replace: true,
      });
    },
    [params, setParams],
  );

  const goTo = useCallback(
    (position: { cursor: string } | { before: string } | null) => {
      setParams(
        viewParams({ ...viewOf(params), cursor: undefined, before: undefined, ...position }),
      );
    },
    [params, setParams],
  );

  return { view, change, goTo };
}
