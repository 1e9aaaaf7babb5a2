import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateCallbackUrl } from '../../../src/accounts/webhooks/callback-url.js';

const notFound = async () => {
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

describe('callback URL validation at registration', () => {
  it('accepts a host that does not resolve yet (each delivery checks the address again)', async () => {
    assert.equal(
      await validateCallbackUrl('https://hooks.example.com/hearth', {
        allowPrivate: false,
        resolver: notFound,
      }),
      'https://hooks.example.com/hearth',
    );
  });

  it('refuses a host that resolves to a private address', async () => {
    const privateResolver = async () => [{ address: '10.0.0.7', family: 4 }];
    await assert.rejects(
      validateCallbackUrl('https://intranet.example.com/hook', {
        allowPrivate: false,
        resolver: privateResolver,
      }),
      /not a public address/,
    );
  });

  it('refuses a host when any of its addresses is private', async () => {
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await assert.rejects(
      validateCallbackUrl('https://mixed.example.com/hook', {
        allowPrivate: false,
        resolver: mixed,
      }),
      /127\.0\.0\.1/,
    );
  });

  it('refuses localhost names whatever the resolver says (trailing dots and subdomains too)', async () => {
    for (const url of [
      'https://localhost/hook',
      'https://LOCALHOST./hook',
      'https://api.localhost/hook',
    ]) {
      await assert.rejects(
        validateCallbackUrl(url, { allowPrivate: false, resolver: notFound }),
        /loopback name/,
        url,
      );
    }
  });
});
