import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { type TestServer, basic, startServer } from '../support/server.js';
import { rawExchange, responseBodies } from '../support/raw-http.js';
import { redactUrl } from '../../src/platform/http/log-redaction.js';

const PAGE_CSP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;" +
  "frame-ancestors 'none';base-uri 'self';form-action 'self'";

describe('hardening: connections, logs, integers, headers, files, encodings', () => {
  let server: TestServer;
  let key: string;
  const logLines: string[] = [];
  before(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (d) => logLines.push(...String(d).split('\n').filter(Boolean)));
    server = await startServer({ logStream, env: { HEARTH_REQUEST_TIMEOUT: '2' } });
    key = (await server.newAccount()).owner.key;
  });
  after(async () => server.close());

  describe('slow and broken requests', () => {
    it('an early 401 on a body that is still arriving closes the connection', async () => {
      const head =
        'POST /v1/people HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100000\r\n\r\n{';
      const res = await rawExchange(server.url, [head, '"', '"'], { gapMs: 1000, waitMs: 4000 });
      assert.ok(res.closed, 'connection still open');
      assert.ok(res.elapsedMs < 1500, `closed after ${res.elapsedMs} ms`);
      const [answer] = responseBodies(res.received);
      assert.equal(answer.status, 401);
      assert.match(res.received, /\r\nconnection: close\r\n/i);
    });

    it('a body slower than HEARTH_REQUEST_TIMEOUT gets 408 with errorMessage and is closed', async () => {
      const head =
        `POST /v1/people HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basic(key)}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';
      const chunks = [head, ...Array.from({ length: 8 }, () => ' ')];
      const res = await rawExchange(server.url, chunks, { gapMs: 500, waitMs: 6000 });
      assert.ok(res.closed, 'connection still open');
      assert.ok(res.elapsedMs < 4500, `closed after ${res.elapsedMs} ms`);
      const [answer] = responseBodies(res.received);
      assert.equal(answer.status, 408, res.received);
      assert.match(JSON.parse(answer.body).errorMessage, /in time/);
    });

    it('slow headers get 408 with errorMessage', async () => {
      const chunks = [
        'GET /v1/identity HTTP/1.1\r\n',
        ...Array.from({ length: 8 }, () => 'X-A: b\r\n'),
      ];
      const res = await rawExchange(server.url, chunks, { gapMs: 500, waitMs: 6000 });
      assert.ok(res.closed);
      const [answer] = responseBodies(res.received);
      assert.equal(answer.status, 408, res.received);
      assert.equal(typeof JSON.parse(answer.body).errorMessage, 'string');
    });

    it('malformed framing, a 40 KB header and a 20 KB URL answer with errorMessage', async () => {
      // The bytes past Content-Length are read as the next request, which is malformed.
      const framing = await rawExchange(
        server.url,
        [
          'POST /livez HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            'Content-Length: 2\r\n\r\n{}',
          '"firstName":"x"}\r\n\r\n',
        ],
        { gapMs: 300 },
      );
      const bigHeader = await rawExchange(server.url, [
        `GET /v1/identity HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
      ]);
      const bigUrl = await rawExchange(server.url, [
        `GET /v1/people?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      ]);
      const answers = [framing, bigHeader, bigUrl].flatMap((r) => responseBodies(r.received));
      assert.deepEqual(
        answers.map((a) => a.status),
        [404, 400, 431, 431],
      );
      for (const answer of answers) {
        const body = JSON.parse(answer.body);
        assert.equal(typeof body.errorMessage, 'string', answer.body);
        assert.equal(body.statusCode, undefined, answer.body);
      }
    });
  });

  describe('secrets in the log', () => {
    it('secret query parameters are redacted wherever the URL is logged', async () => {
      const secrets = ['hos_SECRET1', 'hac_SECRET2', 'SECRET3key', 'SECRET4tok', 'SECRET5pw'];
      await server.call(
        'GET',
        `/oauth/token?grant_type=authorization_code&client_id=c1&client_secret=${secrets[0]}&code=${secrets[1]}`,
      );
      await server.call('GET', `/v1/identity?api_key=${secrets[2]}`);
      await server.call('GET', `/nowhere?token=${secrets[3]}&Password=${secrets[4]}&keep=visible`);
      await server.call('GET', `/v1/identity?refresh_token=a&access_token=b&%63ode=${secrets[1]}`);
      const log = logLines.join('\n');
      assert.match(log, /client_id=c1&client_secret=\[REDACTED\]&code=\[REDACTED\]/);
      assert.match(log, /keep=visible/);
      for (const secret of secrets) assert.ok(!log.includes(secret), `${secret} in the log`);
      assert.ok(!/refresh_token=a|access_token=b/.test(log));
    });

    it('redactUrl keeps everything but the secret values', () => {
      assert.equal(redactUrl('/a?x=1&code=2#f'), '/a?x=1&code=[REDACTED]#f');
      assert.equal(redactUrl('/a'), '/a');
      assert.equal(redactUrl('/a?TOKEN=1&tokens=2'), '/a?TOKEN=[REDACTED]&tokens=2');
    });
  });

  describe('strict integers', () => {
    it('path and query integers take decimal digits within range only', async () => {
      const person = await server.post(key, '/v1/people', { firstName: 'Int' });
      assert.equal(person.status, 201);
      assert.equal((await server.get(key, `/v1/people/${person.body.id}`)).status, 200);
      const loose = ['0x1', '1e309', 'Infinity', '+1', '1e0', '1.0', '%201', '-1', '99999999999'];
      for (const value of loose) {
        const res = await server.get(key, `/v1/people/${value}`);
        assert.equal(res.status, 400, `${value}: ${res.text}`);
        assert.match(res.body.errorMessage, /path parameter 'id'/, value);
        assert.deepEqual(res.body.errors?.[0]?.field, 'id');
      }
      for (const query of ['limit=0x1', 'offset=+1', 'limit=1e1', 'assignedUserId=0x10']) {
        const res = await server.get(key, `/v1/people?${query}`);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.match(res.body.errorMessage, new RegExp(`'${query.split('=')[0]}'`));
      }
      assert.equal((await server.get(key, '/v1/people?limit=2&offset=0')).status, 200);
    });
  });

  describe('headers', () => {
    it('API answers carry HSTS, nosniff, Referrer-Policy and no-store', async () => {
      for (const res of [
        await server.get(key, '/v1/identity'),
        await server.get(key, '/v1/people/99999'),
        await server.call('GET', '/v1/people'),
      ]) {
        assert.match(String(res.headers['strict-transport-security']), /max-age=\d+/);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['referrer-policy'], 'same-origin');
        assert.equal(res.headers['cache-control'], 'no-store');
      }
      const health = await server.call('GET', '/livez');
      assert.equal(health.headers['x-content-type-options'], 'nosniff');
    });

    it('HTML pages carry the contract CSP and cannot be framed', async () => {
      const docs = await server.call('GET', '/docs/');
      assert.equal(docs.status, 200);
      assert.match(String(docs.headers['content-type']), /text\/html/);
      assert.equal(docs.headers['content-security-policy'], PAGE_CSP);
      assert.equal(docs.headers['x-frame-options'], 'DENY');
    });
  });

  describe('API reference', () => {
    it('every operation has a unique operationId and a description', async () => {
      const doc = (await server.call('GET', '/openapi.json')).body;
      const seen = new Set<string>();
      for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(
        doc.paths,
      )) {
        for (const [method, op] of Object.entries(item)) {
          const id = op.operationId as string;
          assert.match(id ?? '', /^[a-z][A-Za-z0-9]+$/, `${method} ${path}`);
          assert.ok(!seen.has(id), `${id} used twice`);
          seen.add(id);
          assert.ok(op.description, `${method} ${path} has no description`);
        }
      }
      assert.ok(seen.has('getPeopleById') && seen.has('createEvents'));
    });
  });

  describe('request ids', () => {
    it('X-Request-Id is taken or generated, answered, in error bodies and every log line', async () => {
      const given = `trace-${Date.now()}`;
      const res = await server.get(key, '/v1/people/0', { 'x-request-id': given });
      assert.equal(res.status, 400);
      assert.equal(res.headers['x-request-id'], given);
      assert.equal(res.body.requestId, given);
      const ok = await server.get(key, '/v1/identity');
      assert.match(String(ok.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const other = await server.get(key, '/v1/identity', { 'x-request-id': 'bad id with spaces' });
      assert.match(String(other.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const missing = await server.call('GET', '/v1/nothing-here', {
        headers: { 'x-request-id': given },
      });
      assert.equal(missing.body.requestId, given);
      const lines = logLines.map((l) => JSON.parse(l)).filter((l) => l.reqId === given);
      assert.ok(lines.length >= 4, JSON.stringify(lines));
      const messages = lines.map((l) => l.msg);
      assert.ok(messages.includes('incoming request') && messages.includes('request completed'));
    });
  });

  describe('request bodies', () => {
    it('gzip bodies are decoded; the limit applies after decoding; other encodings are 415', async () => {
      const json = JSON.stringify({ firstName: 'Zipped', lastName: 'Person' });
      const headers = { 'content-encoding': 'gzip', authorization: basic(key) };
      const ok = await server.call('POST', '/v1/people', {
        headers,
        raw: gzipSync(json),
        contentType: 'application/json',
      });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.name, 'Zipped Person');
      const bomb = gzipSync(`{"firstName":"${' '.repeat(2 * 1024 * 1024)}"}`);
      assert.ok(bomb.length < 20_000);
      const big = await server.call('POST', '/v1/people', {
        headers,
        raw: bomb,
        contentType: 'application/json',
      });
      assert.equal(big.status, 413, big.text);
      assert.match(big.body.errorMessage, /too large/);
      const corrupt = await server.call('POST', '/v1/people', {
        headers,
        raw: Buffer.from('not gzip at all'),
        contentType: 'application/json',
      });
      assert.equal(corrupt.status, 400, corrupt.text);
      assert.match(corrupt.body.errorMessage, /gzip/);
      const brotli = await server.call('POST', '/v1/people', {
        headers: { ...headers, 'content-encoding': 'br' },
        raw: json,
        contentType: 'application/json',
      });
      assert.equal(brotli.status, 415, brotli.text);
      assert.match(brotli.body.errorMessage, /Content-Encoding 'br'/);
    });
  });
});

describe('hardening: file modes', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'hearth-modes-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const mode = (file: string) => statSync(file).mode & 0o777;
  const sqlite = !process.env.TEST_DATABASE_URL;

  it('a new data dir is 0700 and the database files 0600', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const env: Record<string, string> = { HEARTH_DATA_DIR: dataDir };
    if (sqlite) env.DATABASE_URL = `sqlite:${path.join(dataDir, 'hearth.db')}`;
    const server = await startServer({ env });
    try {
      const account = await server.newAccount();
      assert.equal((await server.post(account.owner.key, '/v1/people', { name: 'M' })).status, 201);
      assert.equal(mode(dataDir), 0o700);
      assert.equal(mode(path.join(dataDir, 'tls-key.pem')), 0o600);
      if (sqlite) {
        for (const file of ['hearth.db', 'hearth.db-wal', 'hearth.db-shm'])
          assert.equal(mode(path.join(dataDir, file)), 0o600, file);
      }
    } finally {
      await server.close();
    }
  });

  it('an existing open data dir and database are made private', async () => {
    const dataDir = path.join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const env: Record<string, string> = { HEARTH_DATA_DIR: dataDir };
    if (sqlite) {
      writeFileSync(path.join(dataDir, 'hearth.db'), '', { mode: 0o644 });
      env.DATABASE_URL = `sqlite:${path.join(dataDir, 'hearth.db')}`;
    }
    const server = await startServer({ env });
    try {
      assert.equal(mode(dataDir), 0o700);
      if (sqlite) assert.equal(mode(path.join(dataDir, 'hearth.db')), 0o600);
    } finally {
      await server.close();
    }
  });
});
