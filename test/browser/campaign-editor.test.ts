import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer, unique } from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

describe('writing and checking a campaign before it goes', () => {
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

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`formats the body, tests it to oneself, names the count and confirms the send (${size})`, async () => {
      const account = await server.newAccount();
      const key = account.owner.key;
      const ava = await account.addUser('Agent', unique('Ava'));
      const avaEmail = (await server.get(key, `/v1/users/${ava.id}`)).body.email as string;
      const tag = unique('spring');
      const buyers = [];
      for (const firstName of ['Grace', 'Alan', 'Ada'])
        buyers.push(
          await server.newPerson(key, { firstName, tags: [tag], assignedUserId: ava.id }),
        );
      const list = await server.post(ava.key, '/v1/smartLists', {
        name: 'Spring buyers',
        filters: { tags: tag },
      });
      assert.equal(list.status, 201, list.text);

      const { context, page } = await signedInPage(browser, server, ava, viewport);
      await page.goto('/campaigns/new');
      await page.getByLabel('Campaign name').fill('Open house');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.getByRole('heading', { name: 'Open house', level: 1 }).waitFor();
      await page.getByLabel('Subject', { exact: true }).fill('Open house this Saturday');

      // The visual editor: type, make a word bold, put a merge field at the cursor.
      const body = page.getByRole('textbox', { name: 'Body' });
      await body.click();
      await page.keyboard.press('Control+a');
      await page.keyboard.type('Dear ');
      await page.getByRole('combobox', { name: 'Insert merge field' }).click();
      await page.getByRole('option', { name: /Contact first name/ }).click();
      await page.keyboard.type(', the doors open at ');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('10 sharp');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('.');
      await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
      const preview = page.frameLocator('iframe[title="Email preview"]');
      await preview.getByText(/Dear (Grace|Alan|Ada), the doors open at/).waitFor();
      const saved = (await server.get(ava.key, '/v1/emCampaigns?limit=1')).body.emCampaigns[0];
      assert.equal(
        saved.bodyHtml,
        '<p>Dear %contact_first_name%, the doors open at <strong>10 sharp</strong>.</p>',
      );
      await page.getByRole('button', { name: 'HTML source' }).click();
      assert.equal(await page.getByLabel('Body (HTML)').inputValue(), saved.bodyHtml);
      await page.getByRole('button', { name: 'Visual' }).click();
      await body.getByText('10 sharp').waitFor();

      // A test goes to Ava alone, merged for the preview's person.
      await page.getByText(`From: ${ava.name} <${avaEmail}>`).waitFor();
      await page.getByRole('combobox', { name: 'Preview for' }).fill('Grace');
      await page.getByRole('option', { name: /Grace/ }).click();
      await page.getByRole('button', { name: 'Send test to me' }).click();
      await page.getByText(`Test sent to ${avaEmail}`).waitFor();
      const test = sink.messages.filter((m) => m.to === avaEmail);
      assert.equal(test.length, 1);
      assert.match(decodedMessage(test[0].data), /Dear Grace, the doors open at/);
      for (const buyer of buyers) assert.equal(sink.countFor(buyer.email), 0);

      // The count before the send, and a dialog that names it; Cancel sends nothing.
      await page.getByRole('combobox', { name: 'Smart list' }).click();
      await page.getByRole('option', { name: 'Spring buyers' }).click();
      await page.getByRole('status').getByText('3 recipients').waitFor();
      await page.getByRole('button', { name: 'Send now' }).click();
      const confirm = page.getByRole('dialog', { name: 'Send this email to 3 people now?' });
      await confirm.getByText(`It comes from ${ava.name} <${avaEmail}>`).waitFor();
      await shot(page, `campaign-confirm-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      assert.equal(
        (await server.get(ava.key, `/v1/emCampaigns/${saved.id}`)).body.lastSend,
        undefined,
      );
      await page.getByRole('button', { name: 'Send now' }).click();
      await confirm.getByRole('button', { name: 'Send to 3 people' }).click();
      await page.getByText('Sent to 3 of 3 recipients').waitFor({ timeout: 60_000 });
      for (const buyer of buyers) assert.equal(sink.countFor(buyer.email), 1);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is ${width}px wide`);
      await shot(page, `campaign-editor-${size}`);
      await context.close();
    });
  }

  it('opens a styled template as HTML source, saying why', async () => {
    const account = await server.newAccount();
    const campaign = await server.post(account.owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Styled',
      subject: 'Hi',
      bodyHtml: '<h2 style="color:#9a3f1c">You are invited</h2><p>Dear %contact_first_name%</p>',
    });
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto(`/campaigns/${campaign.body.id}`);
    await page.getByText(/formatting the visual editor has no place for/).waitFor();
    assert.equal(
      await page.getByLabel('Body (HTML)').inputValue(),
      '<h2 style="color:#9a3f1c">You are invited</h2><p>Dear %contact_first_name%</p>',
    );
    assert.equal(
      await page.getByRole('button', { name: 'HTML source' }).getAttribute('aria-pressed'),
      'true',
    );
    await context.close();
  });
});
