import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestAccount, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

describe('the person page saves each field in place', () => {
  let server: TestServer;
  let browser: Browser;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    account = await server.newAccount();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`saves on Enter and on leaving, undoes with Escape, shows errors (${size})`, async () => {
      const key = account.owner.key;
      const lastName = unique('Bu');
      const person = await server.newPerson(key, { firstName: 'Phoebe', lastName });
      const read = async () => (await server.get(key, `/v1/people/${person.id}`)).body;
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto(`/people/${person.id}`);
      await page.getByRole('heading', { name: `Phoebe ${lastName}`, level: 1 }).waitFor();
      const status = page.getByRole('status').filter({ hasText: /saved|Saving/ });

      // Enter saves: "Saved" beneath the field, the heading follows, the server has it.
      const first = page.getByLabel('First name');
      await first.fill('Phoebe Anne');
      await first.press('Enter');
      await status.getByText('First name saved').waitFor();
      await page.getByText('Saved', { exact: true }).waitFor();
      await page.getByRole('heading', { name: `Phoebe Anne ${lastName}`, level: 1 }).waitFor();
      assert.equal((await read()).firstName, 'Phoebe Anne');

      // Escape puts the saved value back and saves nothing.
      const source = page.getByLabel('Source');
      await source.fill('Zillow');
      await source.press('Escape');
      assert.equal(await source.inputValue(), (await read()).source);
      await source.blur();
      assert.notEqual((await read()).source, 'Zillow');

      // Leaving a field saves it; a choice saves as it is picked.
      await page.getByLabel('Price').fill('450,000');
      await page.getByLabel('Note').click();
      await status.getByText('Price saved').waitFor();
      assert.equal((await read()).price, 450000);
      await page.getByRole('combobox', { name: 'Stage' }).click();
      await page.getByRole('option', { name: 'Prospect' }).click();
      await status.getByText('Stage saved').waitFor();
      assert.equal((await read()).stage, 'Prospect');
      const tags = page.getByLabel('Tags');
      await tags.fill('open-house');
      await tags.press('Enter');
      await status.getByText('Tags saved').waitFor();
      assert.deepEqual((await read()).tags, ['open-house']);

      // The server's refusal shows at the field, which keeps what was typed.
      const email = page.getByLabel('Email address').first();
      await email.fill('not an email');
      await email.press('Enter');
      await status.getByText('Email address not saved').waitFor();
      const error = page.getByText(/email/i).and(page.locator('.Mui-error'));
      await error.first().waitFor();
      assert.equal(await email.inputValue(), 'not an email');
      assert.equal(await email.getAttribute('aria-invalid'), 'true');
      await shot(page, `person-inline-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await email.press('Escape');
      assert.equal(await email.inputValue(), person.email);
      assert.deepEqual(
        (await read()).emails.map((e: { value: string }) => e.value),
        [person.email],
      );
      await context.close();
    });
  }
});
