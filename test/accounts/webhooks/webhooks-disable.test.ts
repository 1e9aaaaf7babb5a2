import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../../support/server.js';
import { emit } from '../../../src/accounts/webhooks/outbox.js';
import { eventually, movableClock, type Receiver, startReceiver, testCa } from './receiver.js';

const DAY = 86_400_000;

describe('webhooks: automatic disabling (moved clock)', () => {
  let server: TestServer;
  const clock = movableClock();
  const receivers: Receiver[] = [];
  before(async () => {
    const ca = await testCa();
    server = await startServer({
      worker: true,
      clock,
      env: {
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: ca.file,
        HEARTH_WEBHOOK_RETRY_SCHEDULE: '600',
        HEARTH_WEBHOOK_RETRY_WINDOW: '60',
      },
    });
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await server.close();
  });

  async function setup() {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const res = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'dealsUpdated', url: receiver.url },
      { 'x-system': system.name, 'x-system-key': system.key },
    );
    assert.equal(res.status, 201);
    const headers = { 'x-system': system.name, 'x-system-key': system.key };
    let n = 0;
    const fire = async () => {
      const before = receiver.received.length;
      await server.ctx.db
        .transaction()
        .execute((trx) => emit(trx, account.accountId, 'dealsUpdated', [++n]));
      await receiver.waitFor(before + 1);
      await eventually(
        async () => {
          const pending = await server.ctx.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', '=', res.body.id)
            .where('attempts', '=', 0)
            .executeTakeFirst();
          return !pending;
        },
        5000,
        'attempt recorded',
      );
    };
    const status = async () =>
      (await server.get(account.owner.key, `/v1/webhooks/${res.body.id}`, headers)).body
        .status as string;
    return { account, receiver, hook: res.body, headers, fire, status };
  }

  it('disables a webhook failing more than half its deliveries for a week, and an Owner can re-activate it', async () => {
    const { account, receiver, hook, headers, fire, status } = await setup();
    receiver.respond((_r, res) => res.writeHead(503).end());
    await fire();
    assert.equal(await status(), 'Active');
    clock.advance(3 * DAY);
    await fire();
    assert.equal(await status(), 'Active', 'three days of failures are not enough');
    clock.advance(4 * DAY + 60_000);
    await fire();
    assert.equal(await status(), 'Disabled', 'still failing a week later');

    // No more deliveries while Disabled: the next outbox row is dispatched without one.
    const before = receiver.received.length;
    await server.ctx.db
      .transaction()
      .execute((trx) => emit(trx, account.accountId, 'dealsUpdated', [500]));
    await eventually(
      async () =>
        !(await server.ctx.db
          .selectFrom('outbox')
          .select('id')
          .where('account_id', '=', account.accountId)
          .where('dispatched_at', 'is', null)
          .executeTakeFirst()),
      5000,
      'dispatch',
    );
    const count = await server.ctx.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 3);
    assert.equal(receiver.received.length, before);

    receiver.respond((_r, res) => res.writeHead(200).end());
    const back = await server.put(
      account.owner.key,
      `/v1/webhooks/${hook.id}`,
      { status: 'Active' },
      headers,
    );
    assert.equal(back.body.status, 'Active');
    await fire();
    assert.equal(await status(), 'Active');
  });

  it('keeps a webhook that recovered within the week', async () => {
    const { receiver, fire, status } = await setup();
    receiver.respond((_r, res) => res.writeHead(500).end());
    await fire();
    clock.advance(2 * DAY);
    receiver.respond((_r, res) => res.writeHead(200).end());
    await fire(); // the last 48 hours: 1 success → recovered
    clock.advance(5 * DAY + 60_000);
    receiver.respond((_r, res) => res.writeHead(500).end());
    await fire(); // failing again, but only since now
    assert.equal(await status(), 'Active');
  });

  it('deactivates an inbox app whose subscription URL kept failing for a week', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const receiver = await startReceiver('/inbox');
    receivers.push(receiver);
    receiver.respond((_r, res) => res.writeHead(503).end());
    const installed = await server.post(
      account.owner.key,
      '/v1/inboxApps/install',
      { publishedInboxAppId: 5, userId: 0, subscriptionUrl: receiver.url },
      { 'x-system': system.name, 'x-system-key': system.key },
    );
    assert.equal(installed.status, 201, installed.text);
    const app = `/v1/inboxApps/${installed.body.id}`;
    const first = await server.post(account.owner.key, `${app}/message`, {
      externalConversationId: 'slow-1',
      externalMessageId: 's-1',
      message: 'Anyone?',
      isIncoming: true,
      sender: { name: 'Sol Slow' },
      person: { name: 'Sol Slow' },
      owner: { userId: account.owner.id },
    });
    assert.equal(first.status, 201, first.text);
    const reply = `/v1/inboxConversations/${first.body.conversationId}/reply`;
    const hook = await server.ctx.db
      .selectFrom('webhooks')
      .select('id')
      .where('inbox_app_id', '=', installed.body.id)
      .executeTakeFirstOrThrow();
    const replyAndWait = async () => {
      const sent = receiver.received.length;
      const res = await server.post(account.owner.key, reply, { message: 'Yes' });
      assert.equal(res.status, 201, res.text);
      await receiver.waitFor(sent + 1);
      await eventually(
        async () =>
          !(await server.ctx.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', '=', hook.id)
            .where('attempts', '=', 0)
            .executeTakeFirst()),
        5000,
        'attempt recorded',
      );
    };
    const status = async () => (await server.get(account.owner.key, app)).body.status as string;
    await replyAndWait();
    clock.advance(3 * DAY);
    await replyAndWait();
    assert.equal(await status(), 'Active');
    clock.advance(4 * DAY + 60_000);
    await replyAndWait();
    assert.equal(await eventually(async () => (await status()) === 'Deactivated' && 'yes'), 'yes');
    const refused = await server.post(account.owner.key, reply, { message: 'Hello?' });
    assert.equal(refused.status, 409, refused.text);
  });
});
