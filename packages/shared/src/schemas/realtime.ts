import { z } from 'zod';

/**
 * Events on the realtime socket (docs/architecture.md). They carry ids only: a client that
 * hears one refetches what it names through the ordinary, authorized API. PostgreSQL
 * limits a NOTIFY payload to 8000 bytes, so message text or file data never travels here.
 *
 * `userId` is the customer the event concerns: a customer's socket receives only events
 * with its own `userId`; an admin's socket receives all of them. An event without one
 * (`prices.changed`) concerns everyone and goes to every socket.
 */
export const ZRealtimeEvent = z.discriminatedUnion('type', [
  /** A chat message was written (or its read flag changed) in a customer's room. */
  z.object({
    type: z.literal('chat.message'),
    roomId: z.uuid(),
    userId: z.uuid(),
    messageId: z.uuid(),
  }),
  /** A room was created, changed or deleted. */
  z.object({ type: z.literal('chat.room'), roomId: z.uuid(), userId: z.uuid() }),
  /** Messages of a room were marked read. */
  z.object({ type: z.literal('chat.read'), roomId: z.uuid(), userId: z.uuid() }),
  /** A KYC submission was created or reviewed. */
  z.object({ type: z.literal('kyc.changed'), userId: z.uuid(), submissionId: z.uuid() }),
  /** A customer's deposit addresses changed, or they asked staff for one. */
  z.object({ type: z.literal('addresses.changed'), userId: z.uuid() }),
  /** A customer's balances or transactions changed. */
  z.object({ type: z.literal('ledger.changed'), userId: z.uuid() }),
  /**
   * A two-person change was proposed or decided (staff's queue refetches). `userId` is the
   * proposer's: staff sockets receive it, a customer's never does (staff are not customers).
   */
  z.object({ type: z.literal('changes.changed'), userId: z.uuid(), changeId: z.uuid() }),
  /** The prices changed (the feed moved): every customer's USD values are worth reading again. */
  z.object({ type: z.literal('prices.changed') }),
]);
export type TRealtimeEvent = z.infer<typeof ZRealtimeEvent>;
export type TRealtimeEventType = TRealtimeEvent['type'];

/** What the browser sends: `subscribe` once after the socket opens (within a few seconds). */
export const ZRealtimeClientMessage = z.object({ type: z.literal('subscribe') });
export type TRealtimeClientMessage = z.infer<typeof ZRealtimeClientMessage>;

/** What the server sends: `ready` once the session is checked, then events. */
export const ZRealtimeServerMessage = z.union([
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('event'), event: ZRealtimeEvent }),
]);
export type TRealtimeServerMessage = z.infer<typeof ZRealtimeServerMessage>;

/** Close codes the server uses; the browser does not reconnect after `unauthorized`. */
export const REALTIME_CLOSE = {
  /** The session is gone, expired or no longer passes 2FA; or no `subscribe` in time. */
  unauthorized: 4401,
  /** The client sent something that is not a known message. */
  badMessage: 4400,
  /** The server is shutting down; reconnect. */
  goingAway: 1001,
  /** The server is restarting (a graceful stop): reconnect soon, it is back in seconds. */
  restarting: 1012,
  /** The server cannot serve the socket right now (its database is away): retry with backoff. */
  tryAgainLater: 1013,
} as const;
