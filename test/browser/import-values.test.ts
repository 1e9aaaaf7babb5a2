import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

describe('the import wizard maps the file’s stage, agent and source values', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ worker: true });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`maps Hot to a stage and Bob S. to an agent before importing (${size})`, async () => {
      const account = await server.newAccount();
      const key = account.owner.key;
      const ava = await account.addUser('Agent', unique('Ava'));
      const family = unique('Kv');
      const csv = [
        'Name,Email,Status,Agent,Lead Source',
        `"${family}, Ann",ann-${family}@example.com,Hot,Bob S.,zillow`,
        `"${family}, Ben",ben-${family}@example.com,Prospect,Bob S.,zillow`,
        `"${family}, Cal",cal-${family}@example.com,Cold,Nobody,Open house`,
      ].join('\n');
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto('/import');
      await page.getByRole('heading', { name: 'Import people' }).waitFor();
      await page.getByLabel('CSV file').setInputFiles({
        name: 'kvcore.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      const statuses = page.getByRole('table', { name: 'Values of Status' });
      await statuses.waitFor();
      // A value naming a stage is matched already.
      assert.equal((await statuses.getByText('Prospect', { exact: true }).count()) > 0, true);
      await page.getByRole('combobox', { name: 'Status: Hot' }).click();
      await page.getByRole('option', { name: 'Active Client' }).click();
      await page.getByRole('combobox', { name: 'Agent: Bob S.' }).click();
      await page.getByRole('option', { name: ava.name }).click();
      await page.getByLabel('Lead Source: zillow').fill('Zillow');
      await shot(page, `import-values-${size}`, { fullPage: true });
      assert.deepEqual(await seriousA11yViolations(page), []);

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('Import done').waitFor();
      const people = (await server.get(key, `/v1/people?lastName=${family}&limit=10`)).body.people;
      const byFirst = (first: string) =>
        people.find((p: { firstName: string }) => p.firstName === first);
      assert.deepEqual(
        ['Ann', 'Ben', 'Cal'].map((f) => [
          byFirst(f).stage,
          byFirst(f).assignedUserId,
          byFirst(f).source,
        ]),
        [
          ['Active Client', ava.id, 'Zillow'],
          ['Prospect', ava.id, 'Zillow'],
          ['Lead', account.owner.id, 'Open house'],
        ],
      );
      await context.close();
    });
  }
});
