import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/platform/config.js';
import { buildApp } from '../../src/app/app.js';
import { closeContext, createContext } from '../../src/app/bootstrap.js';
import type { AppContext } from '../../src/platform/context.js';
import { loadTls } from '../../src/platform/tls.js';
import { startWorker } from '../../src/worker.js';
import { startInboundListener } from '../../src/leads/inboundEmail/smtp.js';
import {
  createAccount,
  createSystem,
  createUser,
  type UserRole,
} from '../../src/accounts/accounts.service.js';
import type { Clock } from '../../src/platform/time.js';
import pino from 'pino';

export const PUBLIC_URL = 'https://hearth.test';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** JSON-encoded unless `raw` is given */
  body?: unknown;
  raw?: string | Buffer;
  contentType?: string;
}

export interface TestUser {
  id: number;
  key: string;
  role: UserRole;
  name: string;
}

export interface TestAccount {
  accountId: number;
  owner: TestUser;
  addUser(role: UserRole, name?: string): Promise<TestUser>;
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  app: FastifyInstance | null;
  /** The generated certificate, for clients that verify TLS. */
  cert: string;
  /** The lead mail SMTP listener's port, when HEARTH_INBOUND_SMTP_PORT was given (0: any). */
  smtpPort: number | null;
  dataDir: string;
  call(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Shorthands that send the given key. */
  get(key: string, path: string, headers?: Record<string, string>): Promise<ApiResponse>;
  post(
    key: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  put(
    key: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  del(key: string, path: string, headers?: Record<string, string>): Promise<ApiResponse>;
  newAccount(name?: string): Promise<TestAccount>;
  /**
   * A person made through POST /v1/people as the key's user (201 asserted): by default with a
   * unique name and email, which `fields` override or extend.
   */
  newPerson(key: string, fields?: Record<string, unknown>): Promise<{ id: number; email: string }>;
  newSystem(prefix?: string): Promise<{ name: string; key: string }>;
  close(): Promise<void>;
}

let counter = 0;
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function basic(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/**
 * Starts Hearth on port 0 over real TLS, on a fresh SQLite file, or on TEST_DATABASE_URL when set
 * (each test makes its own accounts there, so suites can share one database).
 */
export async function startServer(
  options: {
    env?: Record<string, string>;
    worker?: boolean;
    api?: boolean;
    clock?: Clock;
    /** Receives the server's log lines (info level and up) instead of discarding them. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-test-'));
  const env: Record<string, string> = {
    HEARTH_DATA_DIR: dataDir,
    PORT: '0',
    HEARTH_PUBLIC_URL: PUBLIC_URL,
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${path.join(dataDir, 'hearth.db')}`,
    HEARTH_RATE_LIMITS: 'off',
    // A functional test must not hang on the machine's speed: CI runs three files at once on one
    // shared PostgreSQL, where a list query that takes 5 ms alone can take a second. The budget
    // itself is tested with a budget of its own (people-list-budget.test.ts).
    HEARTH_LIST_QUERY_MS: '15000',
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const log = options.logStream
    ? pino({ level: 'info' }, options.logStream)
    : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const ctx = await createContext(config, { log, clock: options.clock });
  const tls = await loadTls(config);
  let app: FastifyInstance | null = null;
  let url = '';
  if (options.api !== false) {
    app = await buildApp(ctx, config.trustProxy ? {} : { https: tls });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    url = `${config.trustProxy ? 'http' : 'https'}://127.0.0.1:${port}`;
  }
  const worker = options.worker ? startWorker(ctx) : null;
  const inbound = config.inbound.smtpPort !== null ? await startInboundListener(ctx, tls) : null;
  const dispatcher = new Agent({
    connect: { ca: tls.cert, servername: 'localhost' },
    keepAliveTimeout: 10,
    pipelining: 0,
  });

  const call = async (
    method: string,
    route: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = basic(opts.key);
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      if (opts.contentType) headers['content-type'] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    const res = await request(`${url}${route}`, {
      method: method as 'GET',
      headers,
      body,
      dispatcher,
    });
    const text = await res.body.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.statusCode, headers: res.headers, body: parsed, text };
  };

  const server: TestServer = {
    url,
    ctx,
    app,
    cert: tls.cert,
    smtpPort: inbound?.port ?? null,
    dataDir,
    call,
    get: (key, route, headers) => call('GET', route, { key, headers }),
    post: (key, route, body, headers) => call('POST', route, { key, body, headers }),
    put: (key, route, body, headers) => call('PUT', route, { key, body, headers }),
    del: (key, route, headers) => call('DELETE', route, { key, headers }),
    async newAccount(name = unique('Team')) {
      const created = await createAccount(ctx.db, {
        name,
        ownerName: `Owner ${name}`,
        ownerEmail: `${unique('owner')}@example.com`,
      });
      const accountId = created.account.id;
      return {
        accountId,
        owner: { id: created.user.id, key: created.apiKey, role: 'Owner', name: created.user.name },
        async addUser(role: UserRole, userName = unique(role)) {
          const user = await createUser(ctx.db, {
            accountId,
            role,
            name: userName,
            email: `${unique(role.toLowerCase())}@example.com`,
          });
          return { id: user.user.id, key: user.apiKey, role, name: user.user.name };
        },
      };
    },
    async newPerson(key, fields = {}) {
      const email = `${unique('person')}@example.com`.toLowerCase();
      const res = await call('POST', '/v1/people', {
        key,
        body: {
          firstName: 'Pat',
          lastName: unique('Person'),
          emails: [{ value: email }],
          ...fields,
        },
      });
      assert.equal(res.status, 201, res.text);
      return { id: res.body.id as number, email };
    },
    async newSystem(prefix = 'System') {
      const created = await createSystem(ctx.db, unique(prefix));
      return { name: created.system, key: created.systemKey };
    },
    async close() {
      await inbound?.close();
      await app?.close();
      await worker?.stop();
      await dispatcher.close();
      await closeContext(ctx);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
