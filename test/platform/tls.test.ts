import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { request } from 'undici';
import { type TestServer, startServer } from '../support/server.js';

/** Sends a plain-HTTP request over a raw TCP socket and returns whatever comes back until the server closes. */
function plainHttp(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    // the server may keep the half-handshake open; stop listening after a while either way
    socket.setTimeout(3000, () => socket.destroy());
  });
}

describe('HTTPS only', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('serves HTTPS with a certificate for localhost and 127.0.0.1', async () => {
    assert.match(server.url, /^https:/);
    const res = await server.call('GET', '/health');
    assert.equal(res.status, 200);
    const cert = new X509Certificate(server.cert);
    assert.match(cert.subjectAltName ?? '', /DNS:localhost/);
    assert.match(cert.subjectAltName ?? '', /IP Address:127\.0\.0\.1/);
  });

  it('does not serve a plain-HTTP request on the HTTPS port', async () => {
    const port = Number(new URL(server.url).port);
    const answer = await plainHttp(port, '/health');
    assert.doesNotMatch(answer, /HTTP\/1\.[01] 200/);
    assert.ok(!answer.includes('"status":"ok"'), answer);
    const viaClient = await request(`http://127.0.0.1:${port}/health`, {
      headersTimeout: 3000,
      bodyTimeout: 3000,
    })
      .then((r) => r.statusCode)
      .catch(() => 'refused');
    assert.notEqual(viaClient, 200);
  });
});

describe('HEARTH_TRUST_PROXY=1', () => {
  let server: TestServer;
  let key: string;
  let accountId: number;
  before(async () => {
    server = await startServer({ env: { HEARTH_TRUST_PROXY: '1' } });
    const account = await server.newAccount();
    key = account.owner.key;
    accountId = account.accountId;
  });
  after(async () => server.close());

  it('serves plain HTTP when the proxy says the client used https', async () => {
    assert.match(server.url, /^http:/);
    const res = await server.call('GET', '/health', { headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(res.status, 200);
    const people = await server.call('GET', '/v1/people', {
      key,
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.equal(people.status, 200, people.text);
  });

  it('refuses requests without X-Forwarded-Proto: https with 403', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'x-forwarded-proto': 'http' },
      { 'x-forwarded-proto': 'HTTPS-ish' },
    ];
    for (const headers of variants) {
      const res = await server.call('GET', '/v1/people', { key, headers });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.match(res.body.errorMessage, /HTTPS is required/);
    }
    const post = await server.call('POST', '/v1/people', { key, body: { firstName: 'Plain' } });
    assert.equal(post.status, 403);
    const count = await server.ctx.db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });
});
