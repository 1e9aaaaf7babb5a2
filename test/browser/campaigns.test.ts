import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer, unique } from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { launchBrowser, PHONE, seriousA11yViolations, signedInPage } from './browser.js';

const SHOTS = process.env.SCREENSHOT_DIR; // a directory: the screens are saved there to look at

/** A whole-page screenshot; on a phone the screen as seen (Chromium leaves iframes blank in tall ones). */
async function shot(page: Page, { name, scrollTo }: { name: string; scrollTo?: string }) {
  await page.evaluate(() => window.scrollTo(0, 0));
  if (scrollTo) await page.getByRole('region', { name: scrollTo }).scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/${name}`, fullPage: !scrollTo });
}

/** A template, two tagged people in a smart list and one person outside it. */
async function seed(server: TestServer, key: string) {
  const template = await server.post(key, '/v1/templates', {
    name: 'Open house invitation',
    subject: 'Open house on Saturday, %contact_first_name%',
    body:
      '<h2 style="color:#9a3f1c">You are invited</h2><p>Dear %contact_first_name%,</p>' +
      '<p>We are opening the doors of <a href="https://example.com/listing/12">12 Garden Lane</a> ' +
      'this Saturday from 10 to 2. Coffee is on us.</p><p>Warm regards,<br>%agent_name%</p>',
    isShared: true,
  });
  assert.equal(template.status, 201, template.text);
  const tag = unique('spring');
  const people = [];
  for (const [firstName, lastName] of [
    ['Grace', 'Hopper'],
    ['Alan', 'Turing'],
  ]) {
    const email = `${unique(firstName)}@example.com`.toLowerCase();
    const res = await server.post(key, '/v1/people', {
      firstName,
      lastName,
      emails: [{ value: email }],
      tags: [tag],
    });
    assert.equal(res.status, 201, res.text);
    people.push({ id: res.body.id as number, email });
  }
  const list = await server.post(key, '/v1/smartLists', {
    name: 'Spring buyers',
    filters: { tags: tag },
  });
  assert.equal(list.status, 201, list.text);
  return people;
}

describe('Campaigns screen in the browser', () => {
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
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });

  it('composes from a template with a merge field and a preview, sends to a smart list, and the statistics grow', async () => {
    const account = await server.newAccount();
    const people = await seed(server, account.owner.key);
    const { context, page } = await signedInPage(browser, server, account.owner);

    await page.getByRole('menuitem', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Campaign name').fill('Spring open house');
    await page.getByRole('combobox', { name: 'Email template' }).click();
    await page.getByRole('option', { name: 'Open house invitation' }).click();
    // The preview is the server's merge for the person chosen in "Preview for". The page picks a
    // default person unless one was chosen or typed first: hold the default back, type, release it.
    const defaultPeople = (url: URL) => url.pathname === '/v1/people' && !url.searchParams.has('q');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(defaultPeople, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Spring open house', level: 1 }).waitFor();
    const previewFor = page.getByRole('combobox', { name: 'Preview for' });
    await previewFor.fill('Grace');
    const answered = page.waitForResponse((res) => defaultPeople(new URL(res.url())));
    release();
    await answered;
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
    assert.equal(await previewFor.inputValue(), 'Grace');
    await page.unroute(defaultPeople);
    await page.getByRole('option', { name: /Grace Hopper/ }).click();
    const subject = page.getByLabel('Preview subject');
    await subject.getByText('Open house on Saturday, Grace').waitFor();
    const body = page.frameLocator('iframe[title="Email preview"]');
    await body.getByText('Dear Grace,').waitFor();

    // A merge field from the picker goes in at the cursor; the preview follows the saved text.
    const subjectField = page.getByLabel('Subject', { exact: true });
    await subjectField.click();
    await subjectField.press('End');
    await subjectField.pressSequentially(' in ');
    await page.getByRole('combobox', { name: 'Insert merge field' }).click();
    await page.getByRole('option', { name: /Contact last name/ }).click();
    assert.equal(
      await subjectField.inputValue(),
      'Open house on Saturday, %contact_first_name% in %contact_last_name%',
    );
    await subject.getByText('Open house on Saturday, Grace in Hopper').waitFor();
    await page.getByRole('status').getByText('Saved').waitFor();

    await page.getByRole('combobox', { name: 'Smart list' }).click();
    await page.getByRole('option', { name: 'Spring buyers' }).click();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('status').getByText('2 recipients').waitFor();
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this email to 2 people now?' });
    await confirm.getByRole('button', { name: 'Send to 2 people' }).click();
    await page.getByText('Sent to 2 of 2 recipients').waitFor({ timeout: 60_000 });
    for (const p of people) assert.equal(sink.countFor(p.email), 1);
    const graces = sink.messages.find((m) => m.to === people[0].email)!.data;
    assert.match(graces, /^Subject: Open house on Saturday, Grace in Hopper$/m);

    const stats = page.getByRole('region', { name: 'Statistics' });
    await stats.getByRole('group', { name: 'Delivered' }).getByText('2', { exact: true }).waitFor();
    // Grace opens her email: the screen's statistics pick it up by themselves.
    const token = /\/e\/o\/([A-Za-z0-9_-]{24})\.gif/.exec(decodedMessage(graces))![1];
    assert.equal((await server.call('GET', `/e/o/${token}.gif`)).status, 200);
    const opened = stats.getByRole('group', { name: 'Opened' });
    await opened.getByText('1', { exact: true }).waitFor({ timeout: 30_000 });
    await opened.getByText(/50%/).waitFor();
    if (SHOTS) await shot(page, { name: `campaign-laptop.png` });

    await page.getByRole('link', { name: 'All campaigns' }).click();
    const row = page.getByRole('row', { name: /Spring open house/ });
    await row.getByText('Sent').waitFor();
    await row.getByRole('cell', { name: '50%' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    if (SHOTS) await shot(page, { name: `campaigns-laptop.png` });
    await context.close();
  });

  it('schedules to chosen people and cancels on a phone-sized screen', async () => {
    const account = await server.newAccount();
    const people = await seed(server, account.owner.key);
    const campaign = await server.post(account.owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Price drop',
      subject: 'A better price, %contact_first_name%',
      bodyHtml: '<p>Hello %contact_first_name%, the price of 12 Garden Lane just dropped.</p>',
    });
    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.goto(`/campaigns/${campaign.body.id}`);
    await page.getByRole('heading', { name: 'Price drop', level: 1 }).waitFor();

    await page.getByRole('radio', { name: 'Chosen people' }).check();
    await page.getByRole('combobox', { name: 'People' }).fill('Alan');
    await page.getByRole('option', { name: /Alan Turing/ }).click();
    await page.getByRole('radio', { name: 'Later' }).check();
    await page.getByLabel('Send at').fill('2099-01-01T09:00');
    await page.getByRole('button', { name: 'Schedule send' }).click();
    await page
      .getByRole('dialog', { name: 'Schedule this email to 1 person?' })
      .getByRole('button', { name: 'Schedule for 1 person' })
      .click();
    await page.getByText(/Scheduled for .* to 1 recipient$/).waitFor();
    await page
      .frameLocator('iframe[title="Email preview"]')
      .getByText(/the price of 12 Garden Lane just dropped/)
      .waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `page is ${width}px wide`);
    if (SHOTS) await shot(page, { name: `campaign-phone.png`, scrollTo: 'Preview' });

    await page.getByRole('button', { name: 'Cancel send' }).click();
    await page.getByText('Cancelled: 0 sent, 1 not sent').waitFor();
    const send = (await server.get(account.owner.key, `/v1/emCampaigns/${campaign.body.id}`)).body
      .lastSend;
    assert.equal(send.status, 'cancelled');
    assert.equal(sink.countFor(people[1].email), 0);

    await page.goto('/campaigns');
    await page
      .getByRole('row', { name: /Price drop/ })
      .getByText('Cancelled')
      .waitFor();
    const listWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(listWidth <= PHONE.width, `the list is ${listWidth}px wide`);
    assert.deepEqual(await seriousA11yViolations(page), []);
    if (SHOTS) await shot(page, { name: `campaigns-phone.png` });
    await context.close();
  });
});
