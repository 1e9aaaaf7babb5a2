import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { basic, type TestServer, startServer, unique } from '../support/server.js';

interface UnreadEvent {
  unread: number;
  latest: number | null;
}

/** An open event stream's `unread` events, as they arrive. */
async function openStream(server: TestServer, key: string) {
  const dispatcher = new Agent({ connect: { ca: server.cert, servername: 'localhost' } });
  const res = await request(`${server.url}/v1/notifications/stream`, {
    headers: { authorization: basic(key), accept: 'text/event-stream' },
    dispatcher,
  });
  const events: UnreadEvent[] = [];
  let text = '';
  res.body.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const event = text.slice(0, end);
      text = text.slice(end + 2);
      const data = /^event: unread\ndata: (.*)$/m.exec(event);
      if (data) events.push(JSON.parse(data[1]!) as UnreadEvent);
    }
  });
  const counts = () => events.map((event) => event.unread);
  /** Waits until the latest event received passes `test` (the stream checks every 3 s). */
  const until = async (test: (event: UnreadEvent) => boolean, expected: string) => {
    const deadline = Date.now() + 10_000;
    while (!events.length || !test(events.at(-1)!)) {
      if (Date.now() > deadline)
        assert.fail(`unread events ${JSON.stringify(events)}; expected ${expected}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const reaches = (count: number) => until((event) => event.unread === count, `${count} unread`);
  const close = async () => {
    res.body.destroy();
    await dispatcher.destroy();
  };
  return { res, events, counts, until, reaches, close };
}

describe('the bell: unread notifications as server-sent events', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('sends the count at once and again when a lead notifies the user or they read it', async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const other = await addUser('Agent');
    await server.post(owner.key, '/v1/leadFlows', {
      source: 'stream.com',
      assignedUserId: agent.id,
    });
    const stream = await openStream(server, agent.key);
    const unrelated = await openStream(server, other.key);
    try {
      assert.equal(stream.res.statusCode, 200);
      assert.match(String(stream.res.headers['content-type']), /^text\/event-stream/);
      await stream.reaches(0);
      const lead = await server.post(owner.key, '/v1/events', {
        type: 'Registration',
        source: 'stream.com',
        person: { firstName: 'Ola', lastName: 'Berg', emails: [`${unique('s')}@example.com`] },
      });
      assert.equal(lead.status, 201, lead.text);
      await stream.reaches(1);
      const read = await server.post(agent.key, '/v1/notifications/markAllRead', {});
      assert.equal(read.status, 200, read.text);
      await stream.reaches(0);
      assert.deepEqual(stream.counts(), [0, 1, 0]);
      assert.deepEqual(unrelated.counts(), [0], "another user's stream hears nothing of it");
    } finally {
      await stream.close();
      await unrelated.close();
    }
  });

  it('tells of a new notification even when one was read in the same few seconds', async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    await server.post(owner.key, '/v1/leadFlows', { source: 'swap.com', assignedUserId: agent.id });
    const lead = (name: string) =>
      server.post(owner.key, '/v1/events', {
        type: 'Registration',
        source: 'swap.com',
        person: { firstName: name, emails: [`${unique(name)}@example.com`] },
      });
    assert.equal((await lead('Ines')).status, 201);
    const stream = await openStream(server, agent.key);
    try {
      await stream.reaches(1);
      const before = stream.events.length;
      // Read and replaced within one check: the count is 1 again, the newest unread is not.
      const read = await server.post(agent.key, '/v1/notifications/markAllRead', {});
      assert.equal(read.status, 200, read.text);
      assert.equal((await lead('Jonas')).status, 201);
      const unread = await server.get(agent.key, '/v1/notifications?unread=true');
      assert.equal(unread.body._metadata.total, 1);
      const newest = unread.body.notifications[0].id as number;
      await stream.until((event) => event.latest === newest, `the newest unread to be ${newest}`);
      assert.ok(stream.events.length > before);
      assert.equal(stream.events.at(-1)!.unread, 1);
    } finally {
      await stream.close();
    }
  });

  it('frees a stream when its client goes away: tabs reloaded many times never hit the cap', async () => {
    const { owner } = await server.newAccount();
    for (let i = 0; i < 12; i++) {
      const stream = await openStream(server, owner.key);
      assert.equal(stream.res.statusCode, 200, `stream ${i + 1}`);
      await stream.reaches(0);
      await stream.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('ends its open streams when the server closes, rather than holding it open', async () => {
    const own = await startServer();
    const { owner } = await own.newAccount();
    const stream = await openStream(own, owner.key);
    await stream.reaches(0);
    const ended = new Promise((resolve) => stream.res.body.on('end', resolve));
    await own.close();
    await ended;
    await stream.close();
  });

  it('needs credentials like every /v1 route, and a client that accepts an event stream', async () => {
    const res = await server.call('GET', '/v1/notifications/stream');
    assert.equal(res.status, 401);
    assert.match(res.body.errorMessage, /API key|sign/i);
    const { owner } = await server.newAccount();
    const json = await server.get(owner.key, '/v1/notifications/stream');
    assert.equal(json.status, 406);
    assert.match(json.body.errorMessage, /Accept: text\/event-stream/);
  });
});
