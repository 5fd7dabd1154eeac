import {
  REALTIME_CLOSE,
  type TRealtimeEvent,
  type TRealtimeEventType,
  ZRealtimeServerMessage,
} from '@coffer/shared';
import type { Query } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { queryClient } from './query-client';
import { appKeys } from './query-keys';
import { useSession } from './session';

/**
 * What a subscriber hears: an event, or `resync` after the socket (re)connected, when
 * whatever happened while it was away may have been missed and should be refetched.
 * `currentSince` is set on the tab's first connection: what was read (or was being read)
 * from that moment on came with the page and is not read again (PAGE_READS_MS); null after
 * a reconnect, when everything shown may be out of date.
 */
export type TRealtimeNotice = TRealtimeEvent | { type: 'resync'; currentSince: number | null };

type Subscriber = { types: readonly TRealtimeEventType[]; handler: (n: TRealtimeNotice) => void };

const subscribers = new Set<Subscriber>();
let socket: WebSocket | null = null;
let holders = 0;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
/** When the tab's first connection began; null until then, and again once released. */
let firstConnectAt: number | null = null;
let everReady = false;

const MAX_DELAY_MS = 30_000;

/**
 * On the tab's first connection, what was read this long before the socket began to connect
 * came with the page (the dashboard reads at app start, beside its code, before the socket
 * can open): it is taken as current rather than asked for twice. A change in that moment,
 * before the socket listened, shows with the next event or the next opening of the page.
 */
const PAGE_READS_MS = 5_000;

/**
 * Whether the socket is up and subscribed (the server said `ready`): while it is, every
 * change is announced, and nothing needs to be polled.
 */
let live = false;
const liveListeners = new Set<() => void>();

function setLive(next: boolean) {
  if (live === next) return;
  live = next;
  for (const listener of liveListeners) listener();
}

function notify(notice: TRealtimeNotice) {
  for (const s of subscribers) {
    if (notice.type === 'resync' || s.types.includes(notice.type)) s.handler(notice);
  }
}

/**
 * Exponential backoff with jitter: about 0.5 s, 1 s, 2 s … up to 30 s, each 50-100 %. After
 * a restart (a graceful stop of the server) it starts at about 1 s, so tabs that heard it
 * together do not all return at once, and it climbs from there while the server is away.
 */
function scheduleReconnect(afterRestart = false) {
  if (retryTimer || holders === 0) return;
  if (afterRestart) attempt = 1;
  const base = Math.min(MAX_DELAY_MS, 500 * 2 ** attempt);
  attempt = Math.min(attempt + 1, 10);
  retryTimer = setTimeout(
    () => {
      retryTimer = null;
      connect();
    },
    base * (0.5 + Math.random() / 2),
  );
}

function connect() {
  if (socket || holders === 0) return;
  if (!everReady && firstConnectAt === null) firstConnectAt = Date.now();
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/realtime`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe' }));
  ws.onmessage = (message) => {
    let data: unknown;
    try {
      data = JSON.parse(String(message.data));
    } catch {
      return;
    }
    const parsed = ZRealtimeServerMessage.safeParse(data);
    if (!parsed.success) return;
    if (parsed.data.type === 'ready') {
      attempt = 0;
      setLive(true);
      const currentSince =
        everReady || firstConnectAt === null ? null : firstConnectAt - PAGE_READS_MS;
      notify({ type: 'resync', currentSince });
      everReady = true;
    } else notify(parsed.data.event);
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    setLive(false);
    // The session ended or lost its second factor: let the app's gate see it.
    if (event.code === REALTIME_CLOSE.unauthorized) {
      void queryClient.invalidateQueries({ queryKey: appKeys.session() });
    }
    scheduleReconnect(event.code === REALTIME_CLOSE.restarting);
  };
}

/** Back online or back to the tab: try at once rather than after the backoff. */
function retryNow() {
  if (socket || holders === 0) return;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  attempt = 0;
  connect();
}

function hold(): () => void {
  holders += 1;
  if (holders === 1) {
    window.addEventListener('online', retryNow);
    document.addEventListener('visibilitychange', retryNow);
    connect();
  }
  return () => {
    holders -= 1;
    if (holders > 0) return;
    window.removeEventListener('online', retryNow);
    document.removeEventListener('visibilitychange', retryNow);
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    attempt = 0;
    firstConnectAt = null;
    everReady = false;
    const ws = socket;
    socket = null;
    setLive(false);
    ws?.close(1000);
  };
}

/**
 * Keeps the tab's one realtime socket open while the user is signed in and past 2FA (the
 * server refuses it otherwise). Mounted once, by the portal layout.
 */
export function useRealtimeConnection(): void {
  const session = useSession();
  const enabled = session.data?.twoFactor.verified === true;
  const userId = session.data?.user.id;
  useEffect(() => {
    if (!enabled || !userId) return;
    return hold();
  }, [enabled, userId]);
}

/**
 * Calls `handler` for each realtime event of the given types, and with `{ type: 'resync' }`
 * whenever the socket (re)connects. The handler may change between renders.
 */
export function useRealtime(
  types: readonly TRealtimeEventType[],
  handler: (notice: TRealtimeNotice) => void,
): void {
  const latest = useRef(handler);
  latest.current = handler;
  const key = types.join(',');
  useEffect(() => {
    const subscriber: Subscriber = {
      types: key.split(',') as TRealtimeEventType[],
      handler: (n) => latest.current(n),
    };
    subscribers.add(subscriber);
    return () => {
      subscribers.delete(subscriber);
    };
  }, [key]);
}

function subscribeLive(listener: () => void): () => void {
  liveListeners.add(listener);
  return () => {
    liveListeners.delete(listener);
  };
}

/** True while the realtime socket is connected and subscribed. */
export function useRealtimeLive(): boolean {
  return useSyncExternalStore(
    subscribeLive,
    () => live,
    () => false,
  );
}

/**
 * A query's `refetchInterval` that polls only while the socket is down: `ms` then, false
 * while it is live, when the server announces every change and the screens refetch on
 * its events (and on `resync` once it is back). Every polled customer query takes its
 * interval from here.
 */
export function usePollWhileOffline(ms: number | false): number | false {
  return useRealtimeLive() ? false : ms;
}

/**
 * Which queries a notice makes out of date, as an `invalidateQueries` predicate: all of
 * them for an event or a reconnect. On the tab's first connection, only what was read
 * before the page's own reads: those, on their way or arrived, are not asked for twice.
 */
export function outdatedBy(notice: TRealtimeNotice): (query: Query) => boolean {
  if (notice.type !== 'resync' || notice.currentSince === null) return () => true;
  const since = notice.currentSince;
  return (query) => query.state.fetchStatus !== 'fetching' && query.state.dataUpdatedAt < since;
}
