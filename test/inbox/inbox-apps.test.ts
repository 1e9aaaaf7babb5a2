import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';

// A literal public address: no DNS lookup, and allowed without HEARTH_WEBHOOK_ALLOW_PRIVATE.
const SUBSCRIPTION = 'https://93.184.216.34/inbox-hook';

describe('inbox apps: installation, conversations on the timeline, access', () => {
  let server: TestServer;
  let account: TestAccount;
  let system: { name: string; key: string };
  let sys: Record<string, string>;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    system = await server.newSystem();
    sys = { 'x-system': system.name, 'x-system-key': system.key };
  });
  after(async () => server.close());

  const install = async (key: string, userId: number, headers = sys, url = SUBSCRIPTION) =>
    server.post(
      key,
      '/v1/inboxApps/install',
      { publishedInboxAppId: 7, userId, subscriptionUrl: url },
      headers,
    );

  it('installs: Owner for the whole account, a user for themselves, with a proven system key', async () => {
    const agent = await account.addUser('Agent');
    const admin = await account.addUser('Admin');
    const whole = await install(account.owner.key, 0);
    assert.equal(whole.status, 201, whole.text);
    assert.equal(whole.body.userId, 0);
    assert.equal(whole.body.status, 'Active');
    assert.equal(whole.body.subscriptionUrl, SUBSCRIPTION);
    assert.equal((await install(admin.key, 0)).status, 403);
    assert.equal((await install(agent.key, admin.id)).status, 403);
    const own = await install(agent.key, agent.id);
    assert.equal(own.status, 201, own.text);
    assert.equal((await install(account.owner.key, 0, { 'x-system': system.name })).status, 403);
    const wrongKey = { 'x-system': system.name, 'x-system-key': 'hsk_wrong_wrong_wrong_wrong' };
    assert.equal((await install(account.owner.key, 0, wrongKey)).status, 403);
    assert.equal((await install(account.owner.key, 999_999)).status, 400);
    for (const url of [
      'http://93.184.216.34/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://169.254.169.254/latest',
    ]) {
      const refused = await install(account.owner.key, 0, sys, url);
      assert.equal(refused.status, 400, `${url}: ${refused.text}`);
      assert.match(refused.body.errorMessage, /subscriptionUrl/);
    }
    const list = await server.get(agent.key, '/v1/inboxApps');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body._metadata.collection, 'inboxApps');
    assert.deepEqual(
      list.body.inboxApps.map((a: { id: number }) => a.id),
      [own.body.id],
    );
    const hooks = await server.get(account.owner.key, '/v1/webhooks', { 'x-system': system.name });
    assert.equal(hooks.status, 200, hooks.text);
    assert.equal(hooks.body._metadata.total, 0, 'inbox app subscriptions are not webhooks');
  });

  it("a conversation's messages and notes show on the person's timeline, for those who see the person", async () => {
    const agent = await account.addUser('Agent');
    const other = await account.addUser('Agent');
    const team = await server.post(account.owner.key, '/v1/teams', {
      name: unique('Desk'),
      userIds: [other.id],
    });
    const installed = (await install(account.owner.key, 0)).body;
    const base = `/v1/inboxApps/${installed.id}`;
    const email = `${unique('chat')}@example.com`;
    const first = {
      externalConversationId: 'conv-1',
      externalMessageId: 'm-1',
      message: 'Is the house still available?',
      isIncoming: true,
      sender: { name: 'Cara Chat' },
      subject: 'Maple St',
      person: { name: 'Cara Chat', emails: [email] },
      owner: { type: 'user', id: agent.id },
    };
    const noPerson = await server.post(account.owner.key, `${base}/message`, {
      ...first,
      person: undefined,
    });
    assert.equal(noPerson.status, 400, noPerson.text);
    const posted = await server.post(account.owner.key, `${base}/message`, first);
    assert.equal(posted.status, 201, posted.text);
    assert.equal(posted.body.type, 'message');
    assert.equal(posted.body.externalConversationId, 'conv-1');
    assert.equal(posted.body.isIncoming, true);
    const personId = posted.body.personId as number;
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedUserId, agent.id, 'a new person belongs to the owner');
    const again = await server.post(account.owner.key, `${base}/message`, first);
    assert.equal(again.status, 409, 'the owner and person are set by the first message');
    const dup = await server.post(account.owner.key, `${base}/message`, {
      ...first,
      person: undefined,
      owner: undefined,
    });
    assert.equal(dup.status, 409, 'the same externalMessageId twice');
    const second = await server.post(account.owner.key, `${base}/message`, {
      externalConversationId: 'conv-1',
      externalMessageId: 'm-2',
      message: 'Yes, come Saturday',
      isIncoming: 'false',
      sender: { userId: agent.id },
      deliveryStatus: 'Sent',
    });
    assert.equal(second.status, 201, second.text);
    const status = await server.put(account.owner.key, `${base}/message`, {
      externalMessageId: 'm-2',
      deliveryStatus: 'Not Delivered',
      deliveryStatusErrorMessage: 'Carrier refused',
    });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.deliveryStatus, 'Not Delivered');
    assert.equal(
      (
        await server.put(account.owner.key, `${base}/message`, {
          externalMessageId: 'm-2',
          deliveryStatus: 'Lost',
        })
      ).status,
      400,
    );
    const note = await server.post(account.owner.key, `${base}/note`, {
      externalConversationId: 'conv-1',
      body: 'Called her back',
      user: { id: agent.id },
    });
    assert.equal(note.status, 201, note.text);
    assert.equal(note.body.type, 'note');
    assert.deepEqual(note.body.sender, { userId: agent.id, name: agent.name });

    const timeline = await server.get(agent.key, `/v1/inboxAppMessages?personId=${personId}`);
    assert.equal(timeline.status, 200, timeline.text);
    assert.equal(timeline.body._metadata.collection, 'inboxAppMessages');
    assert.deepEqual(
      timeline.body.inboxAppMessages.map((m: { message: string }) => m.message),
      ['Called her back', 'Yes, come Saturday', 'Is the house still available?'],
    );
    const paged = await server.get(agent.key, `/v1/inboxAppMessages?personId=${personId}&limit=1`);
    assert.ok(paged.body._metadata.nextLink, paged.text);
    assert.equal(
      (await server.get(other.key, `/v1/inboxAppMessages?personId=${personId}`)).body._metadata
        .total,
      0,
    );
    const convs = await server.get(agent.key, `/v1/inboxConversations?personId=${personId}`);
    assert.equal(convs.body.inboxConversations[0].subject, 'Maple St');
    assert.equal(
      (await server.get(other.key, `/v1/inboxConversations/${convs.body.inboxConversations[0].id}`))
        .status,
      404,
    );

    const matched = await server.post(account.owner.key, `${base}/message`, {
      ...first,
      externalConversationId: 'conv-2',
      externalMessageId: 'm-3',
      person: { emails: [email.toUpperCase()] },
      owner: { teamInboxId: team.body.id },
    });
    assert.equal(matched.status, 201, matched.text);
    assert.equal(matched.body.personId, personId, 'matched by email, not a second person');

    const put = await server.put(account.owner.key, `${base}/conversations/conv-1`, {
      subject: 'Maple St 12',
      archived: true,
      assignedUserId: other.id,
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.subject, 'Maple St 12');
    assert.equal(put.body.archived, true);
    assert.equal(put.body.assignedUserId, other.id);
    assert.equal(
      (await server.put(account.owner.key, `${base}/conversations/nope`, { subject: 'x' })).status,
      404,
    );

    const parts = `${base}/conversations/conv-1/participants`;
    const added = await server.post(account.owner.key, parts, {
      name: 'Dan',
      phone: '+1 555 0100',
    });
    assert.equal(added.status, 201, added.text);
    assert.equal((await server.post(account.owner.key, parts, { userId: other.id })).status, 201);
    assert.equal(
      (await server.post(account.owner.key, parts, { userId: other.id, name: 'x' })).status,
      400,
    );
    assert.equal((await server.post(account.owner.key, parts, {})).status, 400);
    const listed = await server.get(account.owner.key, parts);
    assert.equal(listed.body._metadata.collection, 'participants');
    assert.equal(listed.body._metadata.total, 2);
    assert.equal((await server.del(account.owner.key, `${parts}/${added.body.id}`)).status, 204);
    assert.equal((await server.get(account.owner.key, parts)).body._metadata.total, 1);

    const userApp = (await install(agent.key, agent.id)).body;
    const teamOwned = await server.post(agent.key, `/v1/inboxApps/${userApp.id}/message`, {
      ...first,
      externalConversationId: 'conv-3',
      owner: { teamInboxId: team.body.id },
    });
    assert.equal(teamOwned.status, 403, 'a user-scoped app cannot add to team inboxes');
    assert.equal(
      (await server.post(other.key, `/v1/inboxApps/${userApp.id}/message`, first)).status,
      404,
    );

    assert.equal((await server.del(account.owner.key, base)).status, 204);
    assert.equal((await server.get(account.owner.key, base)).body.status, 'Deactivated');
    const afterwards = await server.post(account.owner.key, `${base}/message`, {
      ...first,
      externalMessageId: 'm-9',
      person: undefined,
      owner: undefined,
    });
    assert.equal(afterwards.status, 403, afterwards.text);
  });

  it('stores attachments and rich objects with a message (https only, bounded, never fetched) and returns them', async () => {
    const agent = await account.addUser('Agent');
    const installed = (await install(account.owner.key, 0)).body;
    const base = `/v1/inboxApps/${installed.id}`;
    const message = (n: number, extra: Record<string, unknown>) => ({
      externalConversationId: 'files-1',
      externalMessageId: `f-${n}`,
      message: 'Here are the photos',
      isIncoming: true,
      sender: { name: 'Fay Files' },
      ...(n === 1
        ? {
            subject: 'Photos',
            person: { name: 'Fay Files', email: `${unique('fay')}@example.com` },
            owner: { userId: agent.id },
          }
        : {}),
      ...extra,
    });
    // The hosts do not exist: a fetch on the request path would fail or hang, so a 201 shows none happens.
    const attachments = [
      { filename: 'kitchen.JPG', url: 'https://files.invalid/k.jpg?sig=abc' },
      { filename: 'offer', url: 'https://files.invalid/o', mimeType: 'application/pdf' },
    ];
    const richObjects = ['https://listings.invalid/homes/12'];
    const posted = await server.post(
      account.owner.key,
      `${base}/message`,
      message(1, { attachments, richObjects }),
    );
    assert.equal(posted.status, 201, posted.text);
    const expected = [
      {
        filename: 'kitchen.JPG',
        url: 'https://files.invalid/k.jpg?sig=abc',
        mimeType: 'image/jpeg',
      },
      { filename: 'offer', url: 'https://files.invalid/o', mimeType: 'application/pdf' },
    ];
    assert.deepEqual(posted.body.attachments, expected);
    assert.deepEqual(posted.body.richObjects, richObjects);
    assert.equal(posted.body.conversationSubject, 'Photos');
    const read = await server.get(
      agent.key,
      `/v1/inboxAppMessages?personId=${posted.body.personId}`,
    );
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.inboxAppMessages[0].attachments, expected);
    assert.deepEqual(read.body.inboxAppMessages[0].richObjects, richObjects);
    const plain = await server.post(account.owner.key, `${base}/message`, message(2, {}));
    assert.equal(plain.status, 201, plain.text);
    assert.deepEqual(plain.body.attachments, []);
    assert.deepEqual(plain.body.richObjects, []);

    const refused: [string, Record<string, unknown>, RegExp][] = [
      [
        'http',
        { attachments: [{ filename: 'a.png', url: 'http://files.invalid/a.png' }] },
        /https/,
      ],
      ['relative', { attachments: [{ filename: 'a.png', url: '/a.png' }] }, /https/],
      ['file scheme', { attachments: [{ filename: 'a.png', url: 'file:///etc/passwd' }] }, /https/],
      [
        'credentials',
        { attachments: [{ filename: 'a.png', url: 'https://u:p@files.invalid/a.png' }] },
        /credentials/,
      ],
      [
        'type',
        { attachments: [{ filename: 'run.exe', url: 'https://files.invalid/r.exe' }] },
        /pdf/,
      ],
      [
        'mimeType',
        {
          attachments: [
            { filename: 'a.zip', url: 'https://f.invalid/a', mimeType: 'application/zip' },
          ],
        },
        /mimeType/,
      ],
      ['no url', { attachments: [{ filename: 'a.png' }] }, /url/],
      [
        'unknown field',
        { attachments: [{ filename: 'a.png', url: 'https://f.invalid/a.png', size: 3 }] },
        /size/,
      ],
      [
        'too many',
        {
          attachments: Array.from({ length: 11 }, (_, i) => ({
            filename: `${i}.png`,
            url: `https://f.invalid/${i}.png`,
          })),
        },
        /attachments/,
      ],
      ['long url', { richObjects: [`https://f.invalid/${'x'.repeat(2100)}`] }, /richObjects/],
      ['rich http', { richObjects: ['http://listings.invalid/1'] }, /richObjects/],
      ['rich not a string', { richObjects: [{ url: 'https://x.invalid' }] }, /richObjects/],
    ];
    let n = 10;
    for (const [what, extra, pattern] of refused) {
      const res = await server.post(account.owner.key, `${base}/message`, message(n++, extra));
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.match(res.body.errorMessage, pattern, what);
    }
    assert.equal(
      (await server.get(agent.key, `/v1/inboxAppMessages?personId=${posted.body.personId}`)).body
        ._metadata.total,
      2,
      'refused messages are not stored',
    );

    const conv = `/v1/inboxConversations/${posted.body.conversationId}`;
    const badReply = await server.post(agent.key, `${conv}/reply`, {
      message: 'See attached',
      attachments: [{ filename: 'x.pdf', url: 'ftp://files.invalid/x.pdf' }],
    });
    assert.equal(badReply.status, 400, badReply.text);
  });

  it("a conversation's person cannot change: it was matched to a person at the first message", async () => {
    const agent = await account.addUser('Agent');
    const installed = (await install(account.owner.key, 0)).body;
    const base = `/v1/inboxApps/${installed.id}`;
    const posted = await server.post(account.owner.key, `${base}/message`, {
      externalConversationId: 'who-1',
      externalMessageId: 'w-1',
      message: 'Hi',
      isIncoming: true,
      sender: { name: 'Wes Who' },
      person: { name: 'Wes Who', email: `${unique('wes')}@example.com` },
      owner: { userId: agent.id },
    });
    assert.equal(posted.status, 201, posted.text);
    const other = await server.post(account.owner.key, '/v1/people', { firstName: 'Other' });
    const put = await server.put(account.owner.key, `${base}/conversations/who-1`, {
      person: { id: other.body.id },
    });
    assert.equal(put.status, 409, put.text);
    assert.match(put.body.errorMessage, /matched/);
    const conv = await server.get(
      agent.key,
      `/v1/inboxConversations/${posted.body.conversationId}`,
    );
    assert.equal(conv.body.personId, posted.body.personId);
  });

  it('a cross-account sweep over every inbox app route finds nothing of another account', async () => {
    const installed = (await install(account.owner.key, 0)).body;
    const agent = await account.addUser('Agent');
    const base = `/v1/inboxApps/${installed.id}`;
    const msg = await server.post(account.owner.key, `${base}/message`, {
      externalConversationId: 'secret-conv',
      externalMessageId: 'secret-m',
      message: 'Secret words',
      isIncoming: true,
      sender: { name: 'Sam Secret' },
      person: { name: 'Sam Secret', email: `${unique('sam')}@example.com` },
      owner: { userId: agent.id },
    });
    assert.equal(msg.status, 201, msg.text);
    const conv = msg.body.conversationId as number;
    const other = await server.newAccount();
    const otherSystem = await server.newSystem();
    const otherAgent = await other.addUser('Agent');
    for (const key of [other.owner.key, otherAgent.key]) {
      const reads = [
        '/v1/inboxApps',
        `/v1/inboxAppMessages?personId=${msg.body.personId}`,
        '/v1/inboxAppMessages',
        `/v1/inboxConversations?personId=${msg.body.personId}`,
        '/v1/inboxConversations',
      ];
      for (const path of reads) {
        const res = await server.get(key, path);
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assert.equal(res.body._metadata.total, 0, path);
      }
      const h = { 'x-system': otherSystem.name, 'x-system-key': otherSystem.key };
      const attempts: [string, string, unknown][] = [
        ['GET', base, undefined],
        ['GET', `/v1/inboxConversations/${conv}`, undefined],
        ['GET', `${base}/conversations/secret-conv/participants`, undefined],
        [
          'POST',
          `${base}/message`,
          {
            externalConversationId: 'secret-conv',
            externalMessageId: 'x',
            message: 'x',
            isIncoming: true,
            sender: { name: 'x' },
          },
        ],
        ['PUT', `${base}/message`, { externalMessageId: 'secret-m', deliveryStatus: 'Read' }],
        [
          'POST',
          `${base}/note`,
          { externalConversationId: 'secret-conv', body: 'x', user: { id: otherAgent.id } },
        ],
        ['PUT', `${base}/conversations/secret-conv`, { subject: 'x' }],
        ['POST', `${base}/conversations/secret-conv/participants`, { name: 'x' }],
        ['DELETE', `${base}/conversations/secret-conv/participants/1`, undefined],
        ['POST', `/v1/inboxConversations/${conv}/reply`, { message: 'x' }],
        ['POST', `/v1/inboxConversations/${conv}/read`, {}],
        ['POST', `/v1/inboxConversations/${conv}/archive`, {}],
        ['DELETE', base, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const res = await server.call(method, path, { key, body, headers: h });
        assert.equal(res.status, 404, `${method} ${path}: ${res.status} ${res.text}`);
        assert.ok(!res.text.includes('Secret') && !res.text.includes('Sam'), res.text);
      }
    }
    assert.equal((await server.get(account.owner.key, base)).body.status, 'Active');
  });
});
