import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unique } from '../../support/server.js';
import { deliverySuite } from './delivery-suite.js';
import { eventually, type Received } from './receiver.js';
// The README's verification sample: what a receiver runs.
import {
  verifyHearthSignature,
  verifyStandardWebhook,
} from '../../../docs/examples/verify-webhook.mjs';

describe('inbox apps: signed deliveries to the subscription URL', () => {
  const suite = deliverySuite();

  /** An account-wide installation pointing at a fresh receiver, and one conversation on it. */
  async function setup() {
    const account = await suite.server.newAccount();
    const system = await suite.server.newSystem();
    const agent = await account.addUser('Agent');
    const receiver = await suite.startReceiver('/inbox');
    const sys = { 'x-system': system.name, 'x-system-key': system.key };
    const installed = await suite.server.post(
      account.owner.key,
      '/v1/inboxApps/install',
      { publishedInboxAppId: 41, userId: 0, subscriptionUrl: receiver.url },
      sys,
    );
    assert.equal(installed.status, 201, installed.text);
    const app = installed.body as { id: number };
    const first = await suite.server.post(account.owner.key, `/v1/inboxApps/${app.id}/message`, {
      externalConversationId: 'chat-7',
      externalMessageId: 'in-1',
      message: 'Can I see the flat on Friday?',
      isIncoming: true,
      sender: { name: 'Pia Portal' },
      subject: 'Flat viewing',
      person: { name: 'Pia Portal', email: `${unique('pia')}@example.com` },
      owner: { userId: agent.id },
    });
    assert.equal(first.status, 201, first.text);
    return { account, system, agent, receiver, app, first: first.body, sys };
  }

  const verified = (r: Received, key: string) =>
    verifyHearthSignature(r.body, r.headers['hearth-signature'], key) &&
    verifyStandardWebhook(r.body, r.headers as Record<string, string>, key);

  it("a user's reply, read and archive reach the app signed with its system key, never as /v1/webhooks", async () => {
    const { account, system, agent, receiver, app, first, sys } = await setup();
    const conversationId = first.conversationId as number;
    const conv = `/v1/inboxConversations/${conversationId}`;
    const replied = await suite.server.post(agent.key, `${conv}/reply`, {
      message: 'Friday at 5 works',
      attachments: [{ filename: 'floorplan.pdf', url: 'https://files.example.com/fp.pdf' }],
    });
    assert.equal(replied.status, 201, replied.text);
    assert.equal(replied.body.isIncoming, false);
    assert.equal(replied.body.userId, agent.id);
    const read = await suite.server.post(agent.key, `${conv}/read`, {});
    assert.equal(read.status, 200, read.text);
    const archived = await suite.server.post(agent.key, `${conv}/archive`, {});
    assert.equal(archived.status, 200, archived.text);
    assert.equal(archived.body.archived, true);

    const got = await receiver.waitFor(3);
    assert.equal(got.length, 3);
    const byEvent = new Map(got.map((r) => [r.json.event as string, r]));
    for (const r of got) {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.ok(verified(r, system.key), `${r.json.event} verifies with the system key`);
      assert.equal(verified(r, 'hsk_another_systems_key_entirely'), false);
      assert.equal(r.headers['webhook-id'], r.json.eventId);
      assert.match(r.json.eventCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      assert.deepEqual(Object.keys(r.json), ['eventId', 'eventCreated', 'event', 'data']);
    }
    const ids = {
      inboxAppId: app.id,
      externalConversationId: 'chat-7',
      fubConversationId: conversationId,
      conversationId,
    };
    assert.deepEqual(byEvent.get('inboxAppReply')?.json.data, {
      ...ids,
      body: 'Friday at 5 works',
      messageId: replied.body.id,
      userData: { id: agent.id },
      attachments: [
        {
          filename: 'floorplan.pdf',
          url: 'https://files.example.com/fp.pdf',
          mimeType: 'application/pdf',
        },
      ],
    });
    assert.deepEqual(byEvent.get('inboxAppConversationRead')?.json.data, {
      ...ids,
      userId: agent.id,
      lastExternalMessageId: null,
      lastFubMessageId: replied.body.id,
    });
    assert.deepEqual(byEvent.get('inboxAppConversationArchived')?.json.data, {
      ...ids,
      userId: agent.id,
      archived: true,
    });

    // The app acknowledges its delivery of the reply with Hearth's message id.
    const status = await suite.server.put(account.owner.key, `/v1/inboxApps/${app.id}/message`, {
      messageId: replied.body.id,
      deliveryStatus: 'Delivered',
    });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.deliveryStatus, 'Delivered');

    const hooks = await suite.server.get(account.owner.key, '/v1/webhooks', sys);
    assert.equal(hooks.status, 200, hooks.text);
    assert.equal(hooks.body._metadata.total, 0, 'the subscription is not a webhook');
    for (const event of ['inboxAppReply', 'inboxAppConversationRead']) {
      const listed = await suite.server.get(account.owner.key, `/v1/webhooks?event=${event}`, sys);
      assert.equal(listed.status, 400, `${event} is not a /v1/webhooks event: ${listed.text}`);
    }
    for (const r of got) {
      const event = await suite.server.get(
        account.owner.key,
        `/v1/webhookEvents/${r.json.eventId}`,
        sys,
      );
      assert.equal(event.status, 404, `${r.json.event} is not a /v1/webhookEvents event`);
    }
    const register = await suite.server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'inboxAppReply', url: receiver.url },
      sys,
    );
    assert.equal(register.status, 400, register.text);
  });

  for (const code of [406, 410]) {
    it(`a ${code} answer deactivates the installation; nothing more is queued or sent to it`, async () => {
      const { account, agent, receiver, app, first } = await setup();
      receiver.respond((_r, res) => res.writeHead(code).end());
      const conv = `/v1/inboxConversations/${first.conversationId}`;
      const replied = await suite.server.post(agent.key, `${conv}/reply`, {
        message: 'Still there?',
      });
      assert.equal(replied.status, 201, replied.text);
      await receiver.waitFor(1);
      const gone = await eventually(async () => {
        const res = await suite.server.get(account.owner.key, `/v1/inboxApps/${app.id}`);
        return res.body.status === 'Deactivated' && res;
      });
      assert.equal(gone.status, 200);
      assert.ok(gone.body.updated >= gone.body.created);

      const again = await suite.server.post(agent.key, `${conv}/reply`, { message: 'Hello?' });
      assert.equal(again.status, 409, again.text);
      assert.match(again.body.errorMessage, /no longer receives events/);
      assert.equal((await suite.server.post(agent.key, `${conv}/read`, {})).status, 409);
      const fromApp = await suite.server.post(
        account.owner.key,
        `/v1/inboxApps/${app.id}/message`,
        {
          externalConversationId: 'chat-7',
          externalMessageId: 'in-2',
          message: 'Are you there?',
          isIncoming: true,
          sender: { name: 'Pia Portal' },
        },
      );
      assert.equal(fromApp.status, 403, fromApp.text);
      assert.equal(receiver.received.length, 1, 'nothing was queued after the refusal');
      const timeline = await suite.server.get(
        agent.key,
        `/v1/inboxAppMessages?conversationId=${first.conversationId}`,
      );
      assert.equal(timeline.body._metadata.total, 2, 'the history stays on the timeline');
    });
  }
});
