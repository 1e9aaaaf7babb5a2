import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import {
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  signedInPage,
  signInUser,
} from './browser.js';

const SHOTS = process.env.SCREENSHOT_DIR; // a directory: the screens are saved there to look at

describe('import wizard and Export in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ worker: true });
    browser = await launchBrowser();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('uploads a CSV, shows its first rows, dry-runs, imports with progress, reports errors, undoes', async () => {
    const account = await server.newAccount();
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import people' }).waitFor();
    const csv =
      'First Name,Last Name,Email,Remarks,Created\nJane,Doe,jane@example.com,Met at the fair,3/7/2025\nJohn,Roe,john@example.com,,\nBad,Row,not-an-email,,\n';
    await page.getByLabel('CSV file').setInputFiles({
      name: 'contacts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const preview = page.getByRole('table', { name: 'First rows of the file' });
    await preview.getByRole('cell', { name: 'jane@example.com' }).waitFor();
    // Each column's field is prefilled from the server's recognition and can be changed.
    const emailField = page.getByLabel('Hearth field for column Email');
    assert.equal(await emailField.inputValue(), 'email');
    const remarks = page.getByLabel('Hearth field for column Remarks');
    assert.equal(await remarks.inputValue(), 'ignore');
    await remarks.selectOption('background');
    await emailField.selectOption('ignore');
    await page.getByText('Map at least one column to a name, email or phone.').waitFor({
      state: 'detached',
    }); // the names still identify people
    await emailField.selectOption('email');
    // The file writes dates day first: 3/7/2025 is 3 July.
    await page.getByRole('combobox', { name: 'Dates in the file' }).click();
    await page.getByRole('option', { name: 'Day first (31/12/2025)' }).click();

    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText('Dry run done').waitFor();
    await page.getByText('Created 2 · Updated 0 · Skipped 0 · Errors 1').waitFor();
    assert.equal((await server.get(account.owner.key, '/v1/people')).body.people.length, 0);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Import done').waitFor();
    const jane = (await server.get(account.owner.key, '/v1/people?firstName=Jane')).body.people[0];
    assert.equal(jane.background, 'Met at the fair'); // the column mapped in the wizard
    assert.match(jane.created, /^2025-07-03/); // read day first, as chosen
    await page.getByText(/Row 4: 'not-an-email' is not a valid email address/).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Download error report' }).getAttribute('href'),
      `/v1/imports/${(await server.get(account.owner.key, '/v1/imports')).body.imports[0].id}/errors.csv`,
    );
    assert.deepEqual(await seriousA11yViolations(page), []);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-laptop.png`, fullPage: true });
    assert.equal((await server.get(account.owner.key, '/v1/people')).body.people.length, 2);

    await page.getByRole('button', { name: 'Undo import' }).click();
    await page.getByText('Undone: removed 2 people').waitFor();
    assert.equal((await server.get(account.owner.key, '/v1/people')).body.people.length, 0);
    await context.close();
  });

  it('Export on the People list downloads the current search as CSV; the wizard fits a phone', async () => {
    const account = await server.newAccount();
    for (const [firstName, tags] of [
      ['Ann', ['buyer']],
      ['Bob', ['seller']],
    ] as const) {
      const res = await server.post(account.owner.key, '/v1/people', { firstName, tags });
      assert.equal(res.status, 201, res.text);
    }
    const { context, page } = await signedInPage(browser, server, account.owner);
    // Bob must be on screen first: waiting for him to leave an unloaded list proves nothing.
    await page.getByRole('link', { name: 'Bob' }).waitFor();
    await page.getByLabel('Search').fill('Ann');
    await page.getByRole('link', { name: 'Bob' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Ann' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export' }).click(),
    ]);
    const text = await (await download.createReadStream()).toArray();
    const csv = Buffer.concat(text as Buffer[]).toString('utf8');
    assert.match(csv, /^\uFEFFFirst Name,Last Name,Email/);
    assert.match(csv, /\r\nAnn,/);
    assert.doesNotMatch(csv, /Bob/);
    await context.close();

    const phone = await newContext(browser, server, PHONE);
    const small = await phone.newPage();
    await signInUser(small, server, account.owner);
    await small.goto('/import');
    await small.getByRole('heading', { name: 'Import people' }).waitFor();
    await small.getByLabel('CSV file').setInputFiles({
      name: 'contacts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'Full Name,E-mail Address,Work Phone,Comments\nAnn Lee,ann@example.com,555 0101,Wants a garden\n',
      ),
    });
    await small.getByLabel('Hearth field for column Work Phone').waitFor();
    assert.equal(
      await small.getByLabel('Hearth field for column Comments').inputValue(),
      'background',
    );
    assert.deepEqual(await seriousA11yViolations(small), []);
    const width = await small.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `page is ${width}px wide`);
    if (SHOTS) await small.screenshot({ path: `${SHOTS}/import-phone.png`, fullPage: true });
    await phone.close();
  });
});
