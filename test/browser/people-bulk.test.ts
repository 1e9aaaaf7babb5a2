import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestAccount, type TestServer } from '../support/server.js';
import { importCsv } from '../contacts/imports-helpers.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  searchPeople,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

describe('bulk actions on everyone a filter matches', () => {
  let server: TestServer;
  let browser: Browser;
  let account: TestAccount;
  before(async () => {
    server = await startServer({ worker: true });
    browser = await launchBrowser();
    account = await server.newAccount();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`selects all N matching, tags them in one job and shows the result (${size})`, async () => {
      const key = account.owner.key;
      const family = unique('Many');
      const rows = ['First Name,Last Name,Email'];
      for (let i = 0; i < 260; i++) rows.push(`P${i},${family},${family}-${i}@example.com`);
      assert.equal((await importCsv(server, key, rows.join('\n'))).created, 260);
      const other = await server.newPerson(key, { firstName: 'Not', lastName: 'Matching' });

      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await searchPeople(page, family);
      await page.getByRole('link', { name: `P259 ${family}` }).waitFor();
      await page.getByRole('link', { name: 'Not Matching' }).first().waitFor({ state: 'detached' });
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      const toolbar = page.getByRole('toolbar', { name: 'Selected people' });
      await toolbar.getByText('25 selected').waitFor();
      await toolbar.getByRole('button', { name: 'Select all 260 matching' }).click();
      await toolbar.getByText('All 260 people matching selected').waitFor();
      assert.equal(
        await page.getByRole('checkbox', { name: 'Select all on this page' }).isChecked(),
        true,
      );
      await shot(page, `bulk-all-matching-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);

      await toolbar.getByRole('button', { name: 'Add tag' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add tag: 260 people' });
      await dialog.getByLabel('Tag').fill(`spring-${size}`);
      await dialog.getByRole('button', { name: 'Apply' }).click();
      const result = dialog
        .getByRole('status')
        .filter({ hasText: `Tag spring-${size} added to 260 people.` });
      await result.waitFor();
      await shot(page, `bulk-result-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await toolbar.waitFor({ state: 'detached' });

      // A selection belongs to its list: a new search starts without one.
      await page.getByRole('checkbox', { name: `Select P259 ${family}` }).check();
      await toolbar.getByText('1 selected').waitFor();
      await page.getByLabel('Search').fill('Not Matching');
      await page.getByRole('link', { name: 'Not Matching' }).first().waitFor();
      await toolbar.waitFor({ state: 'detached' });
      const tagged = await server.get(key, `/v1/people?tags=spring-${size}&limit=1`);
      assert.equal(tagged.body._metadata.total, 260);
      assert.deepEqual((await server.get(key, `/v1/people/${other.id}`)).body.tags, []);
      await context.close();
    });
  }
});
