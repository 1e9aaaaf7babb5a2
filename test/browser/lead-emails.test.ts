import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { fixture, leadAddresses, parsedInbound, sendSmtp } from '../leads/inbound-helpers.js';
import {
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  signedInPage,
  signInUser,
} from './browser.js';

const SHOTS = process.env.SCREENSHOT_DIR; // a directory: the screens are saved there to look at

/** A lead no parser reads (no email or phone in its fields), with a script and a remote image. */
const HOSTILE = [
  'From: Open House Sign-in <signin@openhouse-app.example>',
  'Reply-To: Quinn Harper <quinn.harper@example.com>',
  'To: agent@agent.example',
  'Subject: Open house visitor',
  'Date: Tue, 17 Nov 2026 10:00:00 +0000',
  'Message-ID: <hostile-1@openhouse-app.example>',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<html><body><p>Name: Quinn Harper</p><p>Property: 14 Elm St</p>',
  '<script>document.title = "pwned"</script>',
  '<img src="https://tracker.example/pixel.gif" alt="">',
  '<p>Message: Please call me about the garden.</p></body></html>',
  '',
].join('\r\n');

describe('Lead emails screen in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ worker: true, env: { HEARTH_INBOUND_SMTP_PORT: '0' } });
    browser = await launchBrowser();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows unparsed mail as plain text, makes one a lead and ignores another', async () => {
    const account = await server.newAccount();
    const { account: address } = await leadAddresses(server, account.owner.key);
    await sendSmtp(server, fixture('not-a-lead.eml'), address);
    await sendSmtp(server, HOSTILE, address);
    await parsedInbound(server, account.owner.key, 2);

    // At phone width first: signing in again (a new password) ends the other sessions.
    if (SHOTS) {
      const phone = await (await newContext(browser, server, PHONE)).newPage();
      await signInUser(phone, server, account.owner);
      await phone.goto('/lead-emails');
      await phone.getByText('Please call me about the garden.').waitFor();
      await phone.screenshot({ path: `${SHOTS}/lead-emails-phone.png`, fullPage: true });
      await phone.getByRole('button', { name: 'Make a lead' }).first().click();
      await phone.getByRole('dialog', { name: 'Make a lead' }).waitFor();
      await phone.screenshot({
        path: `${SHOTS}/lead-emails-dialog-phone.png`,
        animations: 'disabled',
      });
      await phone.context().close();
    }
    const context = await newContext(browser, server);
    const page = await context.newPage();
    const remote: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) remote.push(request.url());
    });
    await signInUser(page, server, account.owner);
    await page.getByRole('menuitem', { name: 'Lead emails' }).click();
    await page.getByRole('heading', { name: 'Lead emails', level: 1 }).waitFor();
    await page.getByText(address).first().waitFor();
    const hostile = page.getByRole('article', { name: 'Open house visitor' });
    await hostile.getByText('Please call me about the garden.').waitFor();
    assert.notEqual(await page.title(), 'pwned', 'no script of the message ran');
    assert.equal(await page.locator('pre script, pre img').count(), 0);
    assert.deepEqual(remote, [], 'no remote content loaded');
    assert.deepEqual(await seriousA11yViolations(page), []);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/lead-emails-laptop.png`, fullPage: true });

    await page
      .getByRole('article', { name: 'Lunch on Friday?' })
      .getByRole('button', { name: 'Ignore' })
      .click();
    await page.getByRole('article', { name: 'Lunch on Friday?' }).waitFor({ state: 'detached' });

    await hostile.getByRole('button', { name: 'Make a lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make a lead' });
    assert.equal(await dialog.getByLabel('Name').inputValue(), 'Quinn Harper');
    assert.equal(await dialog.getByLabel('Email').inputValue(), 'quinn.harper@example.com');
    assert.equal(await dialog.getByLabel('Property address').inputValue(), '14 Elm St');
    await dialog.getByLabel('Phone').fill('555-0142-777');
    await dialog.getByRole('button', { name: 'Create lead' }).click();
    await page.getByRole('link', { name: 'open the person' }).waitFor();
    await page.getByText('Every message received was read as a lead.').waitFor();

    const rows = (await server.get(account.owner.key, '/v1/inboundEmails')).body.inboundemails;
    const statuses = Object.fromEntries(
      rows.map((r: { subject: string; status: string }) => [r.subject, r.status]),
    );
    assert.deepEqual(statuses, { 'Open house visitor': 'parsed', 'Lunch on Friday?': 'ignored' });
    const person = (
      await server.get(account.owner.key, '/v1/people?email=quinn.harper@example.com')
    ).body.people[0];
    assert.equal(person.createdVia, 'Email Parsing');
    assert.equal(person.phones[0].value, '555-0142-777');
  });

  it('is not offered to an Agent, whom the API refuses', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { context, page } = await signedInPage(browser, server, agent);
    await page.getByRole('menuitem', { name: 'People' }).waitFor();
    assert.equal(await page.getByRole('menuitem', { name: 'Lead emails' }).count(), 0);
    assert.equal((await server.get(agent.key, '/v1/inboundEmails')).status, 403);
    await context.close();
  });
});
