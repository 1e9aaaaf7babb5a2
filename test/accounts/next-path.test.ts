import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { safeNextPath } from '../../web/src/api/next-path.js';

const ORIGIN = 'https://hearth.test';
/** What the login page gets from `?next=` (URLSearchParams decodes it once). */
const nextOf = (query: string) => new URLSearchParams(query).get('next');

describe('safeNextPath: where sign-in may send the browser', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    for (const [query, expected] of [
      ['next=%2Fmy-day', '/my-day'],
      ['next=/people/12?tab=notes#x', '/people/12?tab=notes#x'],
      [
        'next=%2Foauth%2Fauthorize%3Fclient_id%3Dabc%26state%3Dz',
        '/oauth/authorize?client_id=abc&state=z',
      ],
    ])
      assert.equal(safeNextPath(nextOf(query), ORIGIN), expected, query);
  });

  it('sends anything that would leave the origin to /', () => {
    for (const query of [
      'next=/%09/evil.example/phish',
      'next=/%0A/evil.example/phish',
      'next=/%0D%0A/evil.example',
      'next=%2F%5Cevil.example',
      'next=/%5C%09evil.example',
      'next=//evil.example',
      'next=%09//evil.example',
      'next=https://evil.example/',
      'next=javascript:alert(1)',
      'next=',
      '',
    ])
      assert.equal(safeNextPath(nextOf(query), ORIGIN), '/', query);
  });

  it('never returns a path the browser would read as another host', () => {
    for (const raw of ['/.//evil.example/x', '/a/..//evil.example', '/%2e//evil.example'])
      assert.doesNotMatch(safeNextPath(raw, ORIGIN), /^\/\/|^\/\\/, raw);
    assert.equal(safeNextPath('/.//evil.example/x', ORIGIN), '/evil.example/x');
  });
});
