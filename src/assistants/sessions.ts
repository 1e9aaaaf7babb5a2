import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  type InitializeRequest,
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AppContext } from '../platform/context.js';
import { ApiError, badRequest } from '../platform/http/errors.js';
import { authInfoOf, type McpCaller } from './caller.js';
import { MemoryEventStore, RedisEventStore, type SessionEvents } from './event-store.js';
import { buildMcpServer } from './server.js';
import {
  IDLE_MS,
  MemorySessionStore,
  RedisSessionStore,
  type SessionRecord,
  type SessionStore,
} from './session-store.js';
import { webRequestOf } from './web-bridge.js';

/** Sessions served by one process, and per user: a loop of initialize requests cannot exhaust memory. */
const MAX_SESSIONS = 2000;
const MAX_PER_USER = 50;
const SWEEP_MS = 60_000;

interface LiveSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  owner: string;
  lastSeen: number;
}

/** Who may use a session: the same user through the same assistant (or API key). */
const ownerOf = (caller: McpCaller) =>
  `${caller.auth.accountId}:${caller.auth.userId}:${caller.client?.id ?? 'key'}`;

const sessionGone = () =>
  new ApiError(404, 'NOT_FOUND', 'This MCP session has ended; initialize a new one');

const storeDown = (err: unknown) =>
  new ApiError(503, 'UNAVAILABLE', `The MCP session store did not answer (${String(err)}); retry`);

/**
 * The Streamable HTTP sessions: their records in the session store (Redis when configured, so any
 * API instance continues any session), and the MCP servers this process runs for them.
 */
export class McpSessions {
  private readonly live = new Map<string, LiveSession>();
  private readonly reviving = new Map<string, Promise<LiveSession>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly redis: Redis | null;
  private readonly store: SessionStore;

  constructor(
    private readonly ctx: AppContext,
    private readonly app: FastifyInstance,
  ) {
    this.redis = ctx.config.redisUrl
      ? new Redis(ctx.config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2000 })
      : null;
    this.redis?.on('error', (err) => ctx.log.warn({ err }, 'MCP session store (Redis) error'));
    this.store = this.redis
      ? new RedisSessionStore(this.redis)
      : new MemorySessionStore(() => ctx.clock.now());
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  /** Answers one /mcp request of an authenticated caller. */
  async handle(request: FastifyRequest, caller: McpCaller): Promise<Response> {
    const transport = await this.transportFor(request, caller);
    return transport.handleRequest(webRequestOf(request, this.ctx.config.publicUrl), {
      authInfo: authInfoOf(caller),
      parsedBody: request.body,
    });
  }

  private async transportFor(request: FastifyRequest, caller: McpCaller) {
    const header = request.headers['mcp-session-id'];
    if (typeof header === 'string') return (await this.continued(header, caller)).transport;
    if (request.method !== 'POST' || !isInitializeRequest(request.body))
      throw badRequest('Send the Mcp-Session-Id header, or start a session with initialize');
    return this.open(caller, request.body.params);
  }

  /** The session's server here: the one running, or one rebuilt from the stored record. */
  private async continued(id: string, caller: McpCaller): Promise<LiveSession> {
    const record = await this.store.touch(id).catch((err: unknown) => {
      throw storeDown(err);
    });
    const local = this.live.get(id);
    if (!record) {
      // Ended at another instance (DELETE) or idled out: this one lets go of it too.
      if (local) this.forget(id);
      throw sessionGone();
    }
    // Another user's session id is answered as an unknown one.
    if (record.owner !== ownerOf(caller)) throw sessionGone();
    // A request that finds the session still being rebuilt waits for the rebuild to finish.
    const session =
      local && !this.reviving.has(id) ? local : await this.reviveOnce(id, record, caller);
    session.lastSeen = this.ctx.clock.now();
    return session;
  }

  private checkCapacity(owner: string): void {
    let ofUser = 0;
    for (const session of this.live.values()) if (session.owner === owner) ofUser += 1;
    if (this.live.size >= MAX_SESSIONS || ofUser >= MAX_PER_USER)
      throw new ApiError(
        429,
        'TOO_MANY_SESSIONS',
        'Too many open MCP sessions; end some with DELETE /mcp or wait for idle ones to close',
      );
  }

  private events(id: string): SessionEvents {
    return this.redis ? new RedisEventStore(this.redis, id) : new MemoryEventStore();
  }

  /** A transport (and its server) for a session id, given or made at initialize. */
  private async serve(owner: string, init: SessionRecord['init'], givenId?: string) {
    this.checkCapacity(owner);
    const id = givenId ?? randomUUID();
    const events = this.events(id);
    const server = buildMcpServer(this.ctx, this.app);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: events,
      onsessioninitialized: async () => {
        const session = { transport, server, owner, lastSeen: this.ctx.clock.now() };
        this.live.set(id, session);
        if (!givenId) await this.store.put(id, { owner, init });
      },
      onsessionclosed: async () => {
        this.live.delete(id);
        await this.store.delete(id);
      },
    });
    transport.onclose = () => {
      if (this.live.get(id)?.transport === transport) this.live.delete(id);
    };
    await server.connect(transport);
    return { id, transport, events };
  }

  private async open(caller: McpCaller, init: SessionRecord['init']) {
    return (await this.serve(ownerOf(caller), init)).transport;
  }

  /** Concurrent requests of one session (a POST and the client's GET stream) share one revival. */
  private async reviveOnce(id: string, record: SessionRecord, caller: McpCaller) {
    let pending = this.reviving.get(id);
    if (!pending) {
      pending = this.revive(id, record, caller).finally(() => this.reviving.delete(id));
      this.reviving.set(id, pending);
    }
    return pending;
  }

  /**
   * A session another instance opened (or this one let go of): a fresh server gets the client's
   * original initialize request, so it knows the same protocol version and capabilities.
   */
  private async revive(id: string, record: SessionRecord, caller: McpCaller) {
    const { transport, events } = await this.serve(record.owner, record.init, id);
    const initialize: InitializeRequest = { method: 'initialize', params: record.init };
    events.muted = true;
    try {
      const answer = await transport.handleRequest(
        new Request(`${this.ctx.config.publicUrl}/mcp`, {
          method: 'POST',
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-protocol-version': record.init.protocolVersion ?? LATEST_PROTOCOL_VERSION,
          },
        }),
        { authInfo: authInfoOf(caller), parsedBody: { jsonrpc: '2.0', id: 0, ...initialize } },
      );
      await answer.text();
    } finally {
      events.muted = false;
    }
    const session = this.live.get(id);
    if (!session) throw new Error(`MCP session ${id} could not be continued here`);
    return session;
  }

  /** Closes this process's server of a session (its record stays for other instances). */
  private forget(id: string): void {
    const session = this.live.get(id);
    this.live.delete(id);
    void session?.server.close();
  }

  private sweep(): void {
    const now = this.ctx.clock.now();
    this.store.sweep(now);
    for (const [id, session] of this.live) if (session.lastSeen < now - IDLE_MS) this.forget(id);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.live.values()];
    this.live.clear();
    await Promise.all(open.map((session) => session.server.close()));
    this.redis?.disconnect();
  }
}
