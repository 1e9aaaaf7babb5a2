import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

// A literal public address: never contacted here (no worker runs), allowed without ALLOW_PRIVATE.
const SUBSCRIPTION = 'https://93.184.216.34/inbox-hook';

const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });

describe("person page in the browser: inbox app conversations on the person's timeline", () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows received and sent messages and notes with their conversation, channel, sender, time and files', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const system = await server.newSystem();
    const installed = await server.post(
      key,
      '/v1/inboxApps/install',
      { publishedInboxAppId: 3, userId: 0, subscriptionUrl: SUBSCRIPTION },
      { 'x-system': system.name, 'x-system-key': system.key },
    );
    assert.equal(installed.status, 201, installed.text);
    const base = `/v1/inboxApps/${installed.body.id}`;
    const lastName = unique('Chat');
    const incoming = await server.post(key, `${base}/message`, {
      externalConversationId: 'wa-1',
      externalMessageId: 'wa-m1',
      message: 'Is the garden south facing?',
      isIncoming: true,
      sender: { name: `Gina ${lastName}` },
      sentAt: '2026-11-20T09:30:00Z',
      subject: 'Garden flat',
      person: { firstName: 'Gina', lastName, email: `${unique('gina')}@example.com` },
      owner: { userId: account.owner.id },
      attachments: [{ filename: 'garden.png', url: 'https://files.example.com/garden.png' }],
    });
    assert.equal(incoming.status, 201, incoming.text);
    const personId = incoming.body.personId as number;
    const reply = await server.post(
      key,
      `/v1/inboxConversations/${incoming.body.conversationId}/reply`,
      { message: 'Yes, it gets sun all afternoon' },
    );
    assert.equal(reply.status, 201, reply.text);
    const note = await server.post(key, `${base}/note`, {
      externalConversationId: 'wa-1',
      body: 'Follow up with the survey',
      user: { id: account.owner.id },
    });
    assert.equal(note.status, 201, note.text);

    for (const [label, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto(`/people/${personId}`);
      await page.getByRole('heading', { name: `Gina ${lastName}`, level: 1 }).waitFor();
      const list = timeline(page);
      const received = list.getByRole('listitem').filter({
        has: page.getByRole('heading', { name: 'Message received · Garden flat' }),
      });
      await received.waitFor();
      await received.getByText('Is the garden south facing?').waitFor();
      await received.getByText(`Inbox app ${installed.body.id} · from Gina ${lastName}`).waitFor();
      const file = received.getByRole('link', { name: 'garden.png' });
      assert.equal(await file.getAttribute('href'), 'https://files.example.com/garden.png');
      assert.equal(await file.getAttribute('rel'), 'noreferrer noopener');
      const time = await received.locator('p.MuiTypography-caption').textContent();
      assert.match(time ?? '', /2026/, 'the time the message was sent');

      const sent = list.getByRole('listitem').filter({
        has: page.getByRole('heading', { name: 'Message sent · Garden flat' }),
      });
      await sent.getByText('Yes, it gets sun all afternoon').waitFor();
      const noted = list.getByRole('listitem').filter({
        has: page.getByRole('heading', { name: 'Conversation note · Garden flat' }),
      });
      await noted.getByText('Follow up with the survey').waitFor();
      await noted.getByText(`Inbox app ${installed.body.id} · by ${account.owner.name}`).waitFor();

      const headings = await list.getByRole('heading', { level: 3 }).allTextContents();
      assert.deepEqual(
        headings.filter((h) => h.includes('Garden flat')),
        [
          'Conversation note · Garden flat',
          'Message sent · Garden flat',
          'Message received · Garden flat',
        ],
        'newest first; the received message is dated by its sentAt',
      );
      assert.deepEqual(await seriousA11yViolations(page), []);
      await shot(page, `hearth-person-inbox-${label}`, { fullPage: true });
      await context.close();
    }
  });
});
