import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { type Dovecot, dovecotMissing, startDovecot } from '../inbox/dovecot.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { MAILBOX_ENV, appendMail, rawMessage, timeline } from '../inbox/mailbox-helpers.js';
import { type OAuthProviderStandIn, startOAuthProvider } from '../inbox/oauth-provider.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

const skip = dovecotMissing();

/** Bold text and a link, with a script and an onerror that would mark the page if they ran. */
const SNEAKY_HTML = (bold: string) =>
  `<p>Could we see the house on <b>${bold}</b>? <a href="https://example.com/listing">The listing</a></p>` +
  `<script>top.document.body.dataset.ran = 'script'</script>` +
  `<img src="https://tracker.example/p.gif" onerror="top.document.body.dataset.ran = 'onerror'">`;

/** The message's frame in `entry` shows `bold` in bold and a link to a new tab; no script ran. */
async function expectFormatted(page: Page, entry: Locator, bold: string) {
  const frame = entry.locator('iframe[title^="Message from"]');
  const content = frame.contentFrame();
  await content.locator('b', { hasText: bold }).waitFor();
  const link = content.getByRole('link', { name: 'The listing' });
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.match((await link.getAttribute('rel')) ?? '', /noopener/);
  assert.equal(await content.locator('script').count(), 0);
  // Wait until an image would have failed (it is blocked), when its onerror would have run.
  const element = await frame.elementHandle();
  await page.waitForFunction(
    (f) => [...((f as HTMLIFrameElement).contentDocument?.images ?? [])].every((i) => i.complete),
    element,
  );
  assert.equal(await page.evaluate(() => document.body.dataset.ran), undefined);
}

describe('connected mailbox in the browser', { skip: skip ?? false }, () => {
  let dovecot: Dovecot;
  let sink: SmtpSink;
  let server: TestServer;
  let browser: Browser;
  let google: OAuthProviderStandIn;
  before(async () => {
    [dovecot, sink, google] = await Promise.all([
      startDovecot(),
      startSmtpSink(),
      startOAuthProvider('Dana.Agent@Gmail.test'),
    ]);
    server = await startServer({ worker: true, env: { ...MAILBOX_ENV, ...google.env } });
    google.returnTo = `${server.url}/v1/mailboxes/oauth/google/callback`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await Promise.all([dovecot?.stop(), sink?.close(), google?.close()]);
  });

  it('signs in with Google: a cancelled sign-in says so, a finished one connects', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    for (const viewport of [LAPTOP, PHONE]) {
      const size = viewport === LAPTOP ? 'laptop' : 'phone';
      const { context, page } = await signedInPage(browser, server, agent, viewport);
      await page.goto('/settings');
      const card = page.getByRole('region', { name: 'Mailbox' });
      google.deny = viewport === LAPTOP;
      await card.getByRole('button', { name: 'Sign in with Google' }).click();
      if (google.deny) {
        await card.getByText('The sign-in was cancelled at the provider').waitFor();
        await card.getByRole('button', { name: 'Sign in with Google' }).waitFor();
        await card.scrollIntoViewIfNeeded();
        await shot(page, `mailbox-sign-in-${size}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
      } else {
        await page.getByText('Mailbox connected: reading your recent mail').waitFor();
        await card.getByText('dana.agent@gmail.test').waitFor();
        assert.equal(new URL(page.url()).search, '', 'the outcome leaves the address');
        assert.equal(await card.getByRole('button', { name: 'Sign in with Google' }).count(), 0);
      }
      await context.close();
    }
    const { mailboxes } = (await server.get(agent.key, '/v1/mailboxes')).body;
    assert.deepEqual(
      mailboxes.map((m: { address: string; authKind: string }) => [m.address, m.authKind]),
      [['dana.agent@gmail.test', 'google']],
    );
  });

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`connects on Settings, shows conversations and sends from the person page (${size})`, async () => {
      const account = await server.newAccount();
      const agent = await account.addUser('Agent');
      const address = `${unique('agent')}@mail.test`.toLowerCase();
      const password = unique('pw');
      await dovecot.addUser(address, password);
      const alice = await server.newPerson(account.owner.key, {
        firstName: 'Alice',
        lastName: 'Moreno',
        assignedUserId: agent.id,
      });
      const first = `<${unique('first')}@customer.test>`;
      await appendMail(dovecot, address, password, 'INBOX', [
        rawMessage({
          from: `Alice Moreno <${alice.email}>`,
          to: address,
          subject: 'Viewing on Saturday?',
          body: 'Hi! Could we see the house on Maple Street on Saturday morning?',
          html: SNEAKY_HTML('Maple Street'),
          messageId: first,
          date: new Date(Date.now() - 2 * 86_400_000),
        }),
      ]);
      await appendMail(dovecot, address, password, 'Sent', [
        rawMessage({
          from: address,
          to: alice.email,
          subject: 'Re: Viewing on Saturday?',
          body: 'Saturday at 10 works. See you there!',
          messageId: `<${unique('reply')}@mail.test>`,
          references: [first],
          date: new Date(Date.now() - 86_400_000),
        }),
      ]);

      const { context, page } = await signedInPage(browser, server, agent, viewport);
      await page.goto('/settings');
      const card = page.getByRole('region', { name: 'Mailbox' });
      await card.getByLabel('Mailbox address').fill(address);
      await card.getByLabel('App password').fill(password);
      await card.getByLabel('IMAP server').fill(dovecot.host);
      await card.getByLabel('IMAP port').fill(String(dovecot.port));
      await card.getByLabel('IMAP over TLS').uncheck();
      const smtp = new URL(sink.url);
      await card.getByLabel('SMTP server').fill(smtp.hostname);
      await card.getByLabel('SMTP port').fill(smtp.port);
      await card.getByLabel('SMTP over TLS').uncheck();
      await card.getByRole('button', { name: 'Connect mailbox' }).click();
      await card.getByText('Connected', { exact: true }).waitFor({ timeout: 20_000 });
      await card.getByText(/Last sync/).waitFor();
      await card.scrollIntoViewIfNeeded();
      await shot(page, `mailbox-settings-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);

      await page.goto(`/people/${alice.id}`);
      const entry = page.getByRole('listitem').filter({ hasText: 'Conversation, 2 emails' });
      await entry.waitFor();
      await entry.getByRole('button', { name: 'Show 2 messages' }).click();
      // The HTML part shows formatted, in a frame where nothing runs and nothing loads.
      await expectFormatted(page, entry, 'Maple Street');
      await entry.getByText('Saturday at 10 works').waitFor();
      await entry.scrollIntoViewIfNeeded();
      await shot(page, `mailbox-conversation-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);

      // An integration's HTML body (POST /v1/emails, not sanitised by the server) is as inert.
      const posted = await server.post(agent.key, '/v1/emails', {
        personId: alice.id,
        subject: 'Brochure',
        body: SNEAKY_HTML('New brochure'),
        isHtml: true,
        isIncoming: true,
        from: alice.email,
        to: [address],
      });
      assert.equal(posted.status, 201, posted.text);
      await page.reload();
      const brochure = page.getByRole('listitem').filter({ hasText: 'Brochure' });
      await brochure.getByRole('button', { name: 'Read' }).click();
      await expectFormatted(page, brochure, 'New brochure');

      await page.getByRole('button', { name: 'Email', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: /Email Alice/ });
      await dialog.getByLabel('Subject').fill('Offer paperwork');
      await dialog.getByLabel('Message').fill('Attached is what we discussed.');
      await shot(page, `mailbox-composer-${size}`);
      await dialog.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Email sent', { exact: true }).waitFor();
      await page.getByRole('listitem').filter({ hasText: 'Offer paperwork' }).first().waitFor();
      assert.ok(sink.messages.some((m) => m.data.includes('Attached is what we discussed.')));
      const emails = await timeline(server, agent.key, alice.id);
      assert.equal(emails.filter((e) => e.subject === 'Offer paperwork').length, 1);

      await page.goto('/settings');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('dialog').getByText('are kept').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
      await card.getByRole('button', { name: 'Connect mailbox' }).waitFor();
      assert.deepEqual((await server.get(agent.key, '/v1/mailboxes')).body.mailboxes, []);
      await context.close();
    });
  }
});
