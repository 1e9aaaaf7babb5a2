import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { PUBLIC_URL, startServer, type TestServer, unique } from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { waitFor } from '../support/process.js';
import {
  LAPTOP,
  PHONE,
  launchBrowser,
  newContext,
  seriousA11yViolations,
  shot,
} from './browser.js';

describe('campaign email pages in the browser', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
      worker: true,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });

  async function links() {
    const { owner } = await server.newAccount();
    const email = `${unique('page')}@example.com`.toLowerCase();
    const person = await server.post(owner.key, '/v1/people', {
      firstName: 'Grace',
      lastName: 'Hopper',
      emails: [{ value: email }],
    });
    const campaign = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Open house',
      subject: 'Open house this Sunday, %contact_first_name%',
      bodyHtml:
        '<html><body><h1 style="color:#1d4e89">Open house this Sunday</h1>' +
        '<p>Dear %contact_first_name%, %agent_name% invites you to 12 Elm Street, 2–4 pm.</p>' +
        '<p><a href="https://example.com/elm-12">See the photos</a></p>' +
        '<meta http-equiv="refresh" content="0;url=/livez">' +
        '<script>document.title = "hacked"</script></body></html>',
    });
    await server.post(owner.key, `/v1/emCampaigns/${campaign.body.id}/send`, {
      personIds: [person.body.id],
    });
    await waitFor(() => sink.countFor(email) === 1, 20_000);
    const body = decodedMessage(sink.messages.find((m) => m.to === email)!.data);
    const find = (kind: string) =>
      new RegExp(`${PUBLIC_URL}/e/${kind}/[A-Za-z0-9_-]+`).exec(body)![0].replace(PUBLIC_URL, '');
    return { unsubscribe: find('u'), view: find('v') };
  }

  for (const [label, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    it(`unsubscribes with one button and shows the email in the browser (${label})`, async () => {
      const { unsubscribe, view } = await links();
      const context = await newContext(browser, server, viewport);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));

      await page.goto(view);
      await page.getByRole('heading', { name: 'Open house this Sunday' }).waitFor();
      assert.equal(
        await page.title(),
        'Open house this Sunday, Grace',
        'the inline script did not run',
      );
      await shot(page, `campaign-pages-view-${label}`, { fullPage: true });
      assert.match(page.url(), /\/e\/v\//, 'the <meta> refresh did not navigate away');

      await page.goto(unsubscribe);
      await page.getByRole('heading', { name: 'Unsubscribe' }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), []);
      await shot(page, `campaign-pages-unsubscribe-${label}`, { fullPage: true });
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      await shot(page, `campaign-pages-unsubscribed-${label}`, { fullPage: true });
      const blocked = problems.filter(
        (p) => !/Content Security Policy.*script|Blocked script execution.*sandboxed/i.test(p),
      );
      assert.deepEqual(blocked, [], 'no errors other than the blocked inline script');
      await context.close();
    });
  }
});
