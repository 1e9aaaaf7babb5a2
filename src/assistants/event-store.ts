import type { Redis } from 'ioredis';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { eventsKey, IDLE_MS } from './session-store.js';

/** Messages a session keeps for a client that reconnects with Last-Event-ID. */
export const KEPT_EVENTS = 200;

type Send = { send: (eventId: string, message: JSONRPCMessage) => Promise<void> };

/**
 * A store that can be muted: a session continued on another instance is rebuilt by replaying its
 * initialize request, whose answer nobody reads and must not be kept.
 */
export interface SessionEvents extends EventStore {
  muted: boolean;
}

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

/** Resumable streams (MCP Streamable HTTP) of a session kept in this process. */
export class MemoryEventStore implements SessionEvents {
  muted = false;
  private events: StoredEvent[] = [];
  private sequence = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.sequence += 1;
    const id = String(this.sequence);
    if (this.muted) return id;
    this.events.push({ id, streamId, message });
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: Send): Promise<string> {
    const index = this.events.findIndex((event) => event.id === lastEventId);
    if (index === -1) return '';
    const { streamId } = this.events[index]!;
    for (const event of this.events.slice(index + 1))
      if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}

/** A Redis stream entry id, as XADD makes them: the only event ids this store answers. */
const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;

/** Fields of a stream entry: s (the SSE stream) and m (the message as JSON). */
const fieldsOf = (fields: string[]) => {
  const at = (name: string) => fields[fields.indexOf(name) + 1]!;
  return { streamId: at('s'), message: JSON.parse(at('m')) as JSONRPCMessage };
};

/**
 * A session's resumable streams in a Redis stream (its last KEPT_EVENTS messages), so that a client
 * whose connection dropped resumes with Last-Event-ID at whichever API instance it reaches.
 */
export class RedisEventStore implements SessionEvents {
  muted = false;
  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    if (this.muted) return '0-0';
    const key = eventsKey(this.sessionId);
    const [[addError, id], [expireError]] = (await this.redis
      .multi()
      .xadd(key, 'MAXLEN', '~', KEPT_EVENTS, '*', 's', streamId, 'm', JSON.stringify(message))
      .pexpire(key, IDLE_MS)
      .exec())! as [[Error | null, string], [Error | null, number]];
    if (addError ?? expireError) throw addError ?? expireError;
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    if (!ENTRY_ID.test(eventId)) return undefined;
    const [entry] = await this.redis.xrange(eventsKey(this.sessionId), eventId, eventId);
    return entry ? fieldsOf(entry[1]).streamId : undefined;
  }

  async replayEventsAfter(lastEventId: string, { send }: Send): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return '';
    const after = await this.redis.xrange(eventsKey(this.sessionId), `(${lastEventId}`, '+');
    for (const [id, fields] of after) {
      const event = fieldsOf(fields);
      if (event.streamId === streamId) await send(id, event.message);
    }
    return streamId;
  }
}
