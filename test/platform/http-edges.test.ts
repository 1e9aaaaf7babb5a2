import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import tls from 'node:tls';
import { type TestAccount, type TestServer, basic, startServer } from '../support/server.js';
import { rawExchange, responseBodies } from '../support/raw-http.js';
import {
  consentFormFields,
  newClient,
  REDIRECT,
  sessionCookieForKey,
} from '../accounts/oauth-helpers.js';
import { login } from '../support/auth.js';
import { PassThrough } from 'node:stream';

/** One request over a raw TLS socket, its target written as given (absolute form included). */
async function rawRequest(
  server: TestServer,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
) {
  const lines = Object.entries({ Host: 'localhost', Connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
  const res = await rawExchange(server.url, [
    `${method} ${target} HTTP/1.1\r\n${lines.join('')}\r\n${body}`,
  ]);
  const [answer] = responseBodies(res.received);
  assert.ok(answer, `no answer to ${method} ${target}: ${res.received}`);
  return answer;
}

describe('HTTP edges: absolute-form targets, 404 text, nesting, repeated form fields', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  it('an absolute-form target is routed and authenticated as its path: no credentials is a 401', async () => {
    const origin = server.url.replace('127.0.0.1', 'localhost');
    for (const path of ['/v1/identity', '/v1/people', '/v1/timeframes', '/v1/people/1']) {
      for (const target of [`${origin}${path}`, `HTTPS://localhost${path}?limit=1`]) {
        const anonymous = await rawRequest(server, 'GET', target);
        assert.equal(anonymous.status, 401, `${target}: ${anonymous.body}`);
        assert.match(JSON.parse(anonymous.body).errorMessage, /API key/);
      }
    }
    const key = { Authorization: basic(account.owner.key) };
    const identity = await rawRequest(server, 'GET', `${origin}/v1/identity`, key);
    assert.equal(identity.status, 200, identity.body);
    assert.equal(JSON.parse(identity.body).user.id, account.owner.id);
    const created = await rawRequest(
      server,
      'POST',
      `${origin}/v1/people`,
      { ...key, 'Content-Type': 'application/json' },
      JSON.stringify({ firstName: 'Absolute' }),
    );
    assert.equal(created.status, 201, created.body);
    const unknown = await rawRequest(server, 'GET', `${origin}/v1/nothingHere?x=1`, key);
    assert.equal(unknown.status, 404);
  });

  it('an unknown path answers "No route for GET <path>", nothing appended', async () => {
    for (const path of ['/v1/reports/x', '/oauth/nothing', '/v1/nothingHere']) {
      const res = await server.get(account.owner.key, `${path}?a=1`);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.errorMessage, `No route for GET ${path}`);
    }
  });

  it('a JSON body nested past 64 levels is a 400, NUL characters or not', async () => {
    for (const [depth, leaf] of [
      [20_000, '"\\u0000"'],
      [100_000, '1'],
      [65, '"x"'],
    ] as const) {
      const body = '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
      const res = await server.call('POST', '/v1/people', {
        key: account.owner.key,
        raw: body,
        contentType: 'application/json',
      });
      assert.equal(res.status, 400, `depth ${depth}: ${res.text.slice(0, 200)}`);
      assert.match(res.body.errorMessage, /nests objects or arrays more than 64 levels/);
    }
    // Brackets inside strings are text, not nesting.
    const res = await server.post(account.owner.key, '/v1/people', {
      firstName: '['.repeat(100),
      background: '{'.repeat(500) + '\\"['.repeat(100),
    });
    assert.equal(res.status, 201, res.text);
    const array = await server.call('POST', '/v1/people', {
      key: account.owner.key,
      raw: '['.repeat(5000),
      contentType: 'application/json',
    });
    assert.equal(array.status, 400);
  });

  it('POST /oauth/authorize with csrf_token repeated is refused with 403, not a 500', async () => {
    const client = await newClient(server, account.accountId);
    const params = { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT };
    const cookie = (await sessionCookieForKey(server, account.owner.key))!;
    const consent = await server.call('GET', `/oauth/authorize?${new URLSearchParams(params)}`, {
      headers: { cookie },
    });
    assert.equal(consent.status, 200, consent.text);
    const fields = consentFormFields(consent.text);
    const form = new URLSearchParams({ ...fields, decision: 'allow' });
    form.append('csrf_token', fields.csrf_token);
    const res = await server.call('POST', '/oauth/authorize', {
      raw: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { cookie },
    });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error, 'access_denied');
  });
});

describe('connections: TLS handshake timeout and the cap on open connections', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      env: { HEARTH_TLS_HANDSHAKE_TIMEOUT: '1', HEARTH_MAX_CONNECTIONS: '3' },
    });
  });
  after(async () => server.close());

  const address = () => {
    const url = new URL(server.url);
    return { host: url.hostname, port: Number(url.port) };
  };

  /** Resolves when the server closes the socket, with the ms it took, or null after `waitMs`. */
  const closedWithin = (socket: net.Socket, waitMs: number) =>
    new Promise<number | null>((resolve) => {
      const started = Date.now();
      const timer = setTimeout(() => resolve(null), waitMs);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Date.now() - started);
      });
    });

  it('a connection that never starts its TLS handshake is closed after HEARTH_TLS_HANDSHAKE_TIMEOUT', async () => {
    const socket = net.connect(address());
    await new Promise((resolve) => socket.once('connect', resolve));
    const closedAfter = await closedWithin(socket, 10_000);
    socket.destroy();
    assert.notEqual(closedAfter, null, 'the idle connection was still open after 10 s');
  });

  it('connections beyond HEARTH_MAX_CONNECTIONS are closed on arrival; a freed slot is usable', async () => {
    const open = async () => {
      const socket = tls.connect({ ...address(), rejectUnauthorized: false });
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      return socket;
    };
    const held = [await open(), await open(), await open()];
    const extra = net.connect(address());
    const extraClosed = await closedWithin(extra, 5_000);
    assert.notEqual(extraClosed, null, 'the fourth connection was kept open');
    held.pop()!.destroy();
    // The server counts the freed slot once it has seen the close.
    let answer = await server.call('GET', '/livez').catch(() => null);
    for (let i = 0; i < 50 && answer?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      answer = await server.call('GET', '/livez').catch(() => null);
    }
    assert.equal(answer?.status, 200);
    for (const socket of held) socket.destroy();
  });
});

describe('HEARTH_TRUST_PROXY=1: the client address is the one the proxy appended', () => {
  let server: TestServer;
  const logLines: string[] = [];
  before(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (d) => logLines.push(...String(d).split('\n').filter(Boolean)));
    server = await startServer({ logStream, env: { HEARTH_TRUST_PROXY: '1' } });
  });
  after(async () => server.close());

  it('the rightmost X-Forwarded-For entry is the address (what the sign-in throttle keys on)', async () => {
    const seen: Record<string, string> = {};
    for (const forwardedFor of ['10.0.0.1, 198.51.100.7', '1.1.1.1,2.2.2.2 , 198.51.100.7']) {
      const requestId = `xff-${Object.keys(seen).length}-${process.pid}`;
      const res = await login(server, 'nobody@example.com', 'guessing-password', {
        'x-forwarded-proto': 'https',
        'x-forwarded-for': forwardedFor,
        'x-request-id': requestId,
      });
      assert.equal(res.status, 401, res.text);
      const line = logLines
        .map((l) => JSON.parse(l))
        .find((l) => l.reqId === requestId && l.req?.remoteAddress);
      assert.ok(line, `no request log line for ${requestId}`);
      seen[forwardedFor] = line.req.remoteAddress;
    }
    assert.deepEqual(Object.values(seen), ['198.51.100.7', '198.51.100.7']);
  });
});
