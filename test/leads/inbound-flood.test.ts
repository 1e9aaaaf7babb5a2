import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { type TestServer, startServer, unique } from '../support/server.js';
import { movableClock } from '../accounts/webhooks/receiver.js';
import { fixture, leadAddresses, sendSmtp, withMessageId } from './inbound-helpers.js';

const LIMIT = 3;
const shared = Boolean(process.env.TEST_REDIS_URL);

/** The SMTP answer to one message: 250, or the code it was refused with. */
async function answer(server: TestServer, to: string, from: string): Promise<number> {
  const raw = withMessageId(fixture('zillow.eml'), `${unique('flood')}@portal.example`);
  try {
    await sendSmtp(server, raw, to, from);
    return 250;
  } catch (err) {
    return (err as { responseCode?: number }).responseCode ?? 0;
  }
}

describe(`leads by email: the flood limit per sender, ${shared ? 'shared through Redis' : 'per listener'}`, () => {
  const clock = movableClock();
  let first: TestServer;
  let second: TestServer;
  const env = {
    HEARTH_INBOUND_SMTP_PORT: '0',
    HEARTH_INBOUND_FLOOD_LIMIT: String(LIMIT),
  };
  before(async () => {
    first = await startServer({ clock, worker: false, env });
    // A second listener on the same database (and Redis, when the test has one).
    second = await startServer({
      clock,
      api: false,
      worker: false,
      env: {
        ...env,
        DATABASE_URL:
          process.env.TEST_DATABASE_URL || `sqlite:${path.join(first.dataDir, 'hearth.db')}`,
      },
    });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it(`answers 451 past ${LIMIT} messages a minute from one sender to one address`, async () => {
    const { owner } = await first.newAccount();
    const { account, user } = await leadAddresses(first, owner.key);
    const sender = `${unique('flooder')}@portal.example`;
    assert.equal(await answer(first, account, sender), 250);
    assert.equal(await answer(first, account, sender), 250);
    assert.equal(await answer(second, account, sender), 250);
    // The fourth in the minute: refused by both listeners when they share the count; else each
    // listener refuses only past the three it has seen itself.
    assert.equal(await answer(second, account, sender), shared ? 451 : 250);
    assert.equal(await answer(first, account, sender), shared ? 451 : 250);
    assert.equal(await answer(first, account, sender), 451);
    assert.equal(await answer(first, user, sender), 250, 'another address has its own count');
    assert.equal(
      await answer(first, account, `${unique('other')}@portal.example`),
      250,
      'another sender has its own count',
    );
    clock.advance(61_000);
    assert.equal(await answer(first, account, sender), 250, 'the next minute takes mail again');
    const stored = await first.get(owner.key, '/v1/inboundEmails?limit=100');
    assert.equal(stored.body._metadata.total, shared ? 6 : 8, 'a refused message is not stored');
  });
});
