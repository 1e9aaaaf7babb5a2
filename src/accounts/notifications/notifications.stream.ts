import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { ApiError } from '../../platform/http/errors.js';
import { unreadState } from './notifications.repo.js';

/**
 * How often a stream counts the unread notifications (a partial index holds just those): a new
 * lead's bell rings within this, and reads in another tab show as soon.
 */
export const STREAM_CHECK_MS = 3_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 25_000;
/**
 * A stream ends after this; the browser's EventSource opens a new one, authenticated again, so a
 * signed-out or deactivated user's stream does not outlive their session by more than this.
 */
const LIFETIME_MS = 10 * 60_000;
const MAX_PER_USER = 10;

/**
 * The web app's bell: the caller's unread count and newest unread notification as server-sent
 * events (`event: unread`), sent at once and again when either changes. Each stream checks the
 * database itself, so a notification made by any API instance or the worker shows without a
 * message bus.
 */
export class NotificationStreams {
  private readonly open = new Map<() => void, number>();

  constructor(private readonly ctx: AppContext) {}

  async serve(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // A client that would read the answer to its end (curl, a route fuzzer) would wait ten minutes.
    if (!String(request.headers.accept ?? '').includes('text/event-stream'))
      throw new ApiError(
        406,
        'NOT_ACCEPTABLE',
        'This is an event stream: send Accept: text/event-stream (EventSource does)',
      );
    const { accountId, userId } = request.auth;
    const mine = [...this.open.values()].filter((user) => user === userId).length;
    if (mine >= MAX_PER_USER)
      throw new ApiError(
        429,
        'TOO_MANY_STREAMS',
        'Too many open notification streams; close some tabs',
      );
    const { db } = this.ctx;
    let state = JSON.stringify(await unreadState(db, accountId, userId));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    const send = () => res.write(`event: unread\ndata: ${state}\n\n`);
    send();
    const check = async () => {
      const now = JSON.stringify(await unreadState(db, accountId, userId));
      if (now === state) return;
      state = now;
      send();
    };
    const timers = [
      setInterval(() => void check().catch(() => close()), STREAM_CHECK_MS),
      setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS),
    ];
    const ending = setTimeout(() => close(), LIFETIME_MS);
    const close = () => {
      if (!this.open.delete(close)) return;
      for (const timer of timers) clearInterval(timer);
      clearTimeout(ending);
      res.end();
    };
    this.open.set(close, userId);
    // The response closes when the client goes away (a reloaded tab): its slot and timers go too.
    res.on('close', close);
  }

  /** Ends every stream (the server is closing: an open stream would hold it). */
  closeAll(): void {
    for (const close of [...this.open.keys()]) close();
  }
}
