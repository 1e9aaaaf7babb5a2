import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

/** The checks before a send: the recipient count and sender, and a test to one's own inbox. */
describe('campaign send preview and test send', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  async function campaign(key: string) {
    const res = await server.post(key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Price drop',
      subject: 'News for %contact_first_name%',
      bodyHtml: '<p>Hello %contact_first_name%, from %agent_name%</p>',
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id as number;
  }

  it('counts the recipients a send would have, as the caller sees them, and sends nothing', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', unique('Ava'));
    const tag = unique('buyers');
    const mine = await server.newPerson(account.owner.key, {
      tags: [tag],
      assignedUserId: agent.id,
    });
    const other = await server.newPerson(account.owner.key, { tags: [tag] });
    const list = await server.post(agent.key, '/v1/smartLists', {
      name: 'Buyers',
      filters: { tags: tag },
    });
    assert.equal(list.status, 201, list.text);
    const id = await campaign(agent.key);

    const byList = await server.post(agent.key, `/v1/emCampaigns/${id}/send/preview`, {
      smartListId: list.body.id,
    });
    assert.equal(byList.status, 200, byList.text);
    const agentEmail = (await server.get(agent.key, `/v1/users/${agent.id}`)).body.email;
    // The agent sees only her own person of the two the list's filter matches.
    assert.deepEqual(byList.body, { recipients: 1, from: `${agent.name} <${agentEmail}>` });

    const owners = await server.post(account.owner.key, `/v1/emCampaigns/${id}/send/preview`, {
      personIds: [mine.id, other.id, mine.id],
    });
    assert.equal(owners.body.recipients, 2);
    const hidden = await server.post(agent.key, `/v1/emCampaigns/${id}/send/preview`, {
      personIds: [other.id],
    });
    assert.equal(hidden.status, 422, hidden.text);
    assert.match(hidden.body.errorMessage, /no person .* that you can see/);
    const both = await server.post(agent.key, `/v1/emCampaigns/${id}/send/preview`, {});
    assert.equal(both.status, 422);
    assert.match(both.body.errorMessage, /Give either personIds/);

    const stranger = await account.addUser('Agent');
    const forbidden = await server.post(stranger.key, `/v1/emCampaigns/${id}/send/preview`, {
      personIds: [mine.id],
    });
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.equal((await server.get(agent.key, `/v1/emCampaigns/${id}`)).body.lastSend, undefined);
  });

  it('sends a merged, untracked test to the caller’s own address only', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', unique('Ava'));
    const agentEmail = (await server.get(agent.key, `/v1/users/${agent.id}`)).body.email as string;
    const grace = await server.newPerson(agent.key, { firstName: 'Grace' });
    const id = await campaign(agent.key);
    const before = sink.messages.length;

    const res = await server.post(agent.key, `/v1/emCampaigns/${id}/sendTest`, {
      mergePersonId: grace.id,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      to: agentEmail,
      from: `${agent.name} <${agentEmail}>`,
      subject: '[Test] News for Grace',
    });
    const sent = sink.messages.slice(before);
    assert.deepEqual(
      sent.map((m) => m.to),
      [agentEmail],
    );
    assert.equal(sink.countFor(grace.email), 0);
    const text = decodedMessage(sent[0].data);
    assert.match(text, /^Subject: \[Test\] News for Grace$/m);
    assert.match(text, new RegExp(`Hello Grace, from ${agent.name}`));
    assert.doesNotMatch(text, /\/e\/o\//, 'no open pixel in a test');

    // Without a person the contact fields are empty and the sender is the agent.
    const bare = await server.post(agent.key, `/v1/emCampaigns/${id}/sendTest`, {});
    assert.equal(bare.body.subject, '[Test] News for ');
    assert.match(decodedMessage(sink.messages.at(-1)!.data), new RegExp(`from ${agent.name}`));

    const stats = await server.get(agent.key, `/v1/emCampaigns/${id}/stats`);
    assert.equal(stats.body.stats.sends, 0);
    assert.equal((await server.get(agent.key, `/v1/emCampaigns/${id}`)).body.lastSend, undefined);

    const unseen = await server.newPerson(account.owner.key, { firstName: 'Hidden' });
    const refused = await server.post(agent.key, `/v1/emCampaigns/${id}/sendTest`, {
      mergePersonId: unseen.id,
    });
    assert.equal(refused.status, 404, refused.text);

    sink.reject(agentEmail, 550);
    const bounced = await server.post(agent.key, `/v1/emCampaigns/${id}/sendTest`, {});
    assert.equal(bounced.status, 502, bounced.text);
    assert.match(bounced.body.errorMessage, /The mail server did not take the test/);
    assert.doesNotMatch(bounced.body.errorMessage, new RegExp(sink.url.replace(/\W/g, '.')));
  });
});
