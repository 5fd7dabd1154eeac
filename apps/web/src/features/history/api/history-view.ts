import {
  HISTORY_ASSETS,
  HISTORY_ORDERS,
  HISTORY_SORTS,
  type THistoryFilters,
  ZTransactionStatus,
  ZTransactionType,
} from '@coffer/shared';

/**
 * What the History screen shows, as its URL's search parameters hold it: the filters, the
 * search, the sort and the page's position (after `cursor`, or before `before`). The names
 * are the API's own, so the URL and the request say the same; a default is left out.
 */
export type THistoryView = Pick<THistoryFilters, 'type' | 'asset' | 'status' | 'sort' | 'order'> & {
  q: string;
  cursor?: string;
  before?: string;
};

export const DEFAULT_VIEW: THistoryView = { q: '', sort: 'date', order: 'desc' };

/** A value of `options`, or undefined: a hand-edited URL falls back to the default. */
function oneOf<T extends string>(options: readonly T[], value: string | null): T | undefined {
  return options.find((o) => o === value);
}

/** The view a URL's search parameters describe. */
export function viewOf(params: URLSearchParams): THistoryView {
  const cursor = params.get('cursor') || undefined;
  const before = params.get('before') || undefined;
  return {
    type: oneOf(ZTransactionType.options, params.get('type')),
    asset: oneOf(HISTORY_ASSETS, params.get('asset')),
    status: oneOf(ZTransactionStatus.options, params.get('status')),
    q: params.get('q') ?? '',
    sort: oneOf(HISTORY_SORTS, params.get('sort')) ?? 'date',
    order: oneOf(HISTORY_ORDERS, params.get('order')) ?? 'desc',
    // One position at a time, as the API takes it.
    ...(before ? { before } : cursor ? { cursor } : {}),
  };
}

/** The filters, search and sort as search parameters, without the defaults. */
export function filterParams(view: THistoryView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.type) params.set('type', view.type);
  if (view.asset) params.set('asset', view.asset);
  if (view.status) params.set('status', view.status);
  if (view.q.trim()) params.set('q', view.q.trim());
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.order !== DEFAULT_VIEW.order) params.set('order', view.order);
  return params;
}

/** The whole view as search parameters: the filters and the page's position. */
export function viewParams(view: THistoryView): URLSearchParams {
  const params = filterParams(view);
  if (view.cursor) params.set('cursor', view.cursor);
  if (view.before) params.set('before', view.before);
  return params;
}

/** Whether the view narrows the history (a filter or a search), rather than showing it all. */
export function isNarrowed(view: THistoryView): boolean {
  return Boolean(view.type || view.asset || view.status || view.q.trim());
}
