/** The realtime hub and its websocket: their front door (see ../README.md). */
export { createRealtimeHub, REALTIME_CHANNEL, type RealtimeHub } from './realtime.hub';
export { registerRealtime } from './realtime.routes';
