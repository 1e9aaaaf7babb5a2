import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, signedInPage } from './browser.js';

describe('New deal on the deals board', () => {
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

  it('adds a deal with its stage, price, people and users; it shows in its column', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const colleague = await account.addUser('Agent', unique('Casey'));
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: unique('Sellers'),
      stages: [{ name: 'Listing' }, { name: 'Under contract' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const lastName = unique('Buyer');
    const person = await server.post(key, '/v1/people', { firstName: 'Robin', lastName });

    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.goto('/deals');
    // Beside the account's default pipeline (Sales): open this test's own.
    await page.getByRole('tab', { name: pipeline.body.name }).click();
    await page.getByRole('button', { name: 'New deal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New deal' });
    await dialog.getByLabel('Deal name').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the New deal dialog');

    const dealName = unique('Maple Ave sale');
    await dialog.getByLabel('Deal name').fill(dealName);
    await dialog.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Under contract' }).click();
    await dialog.getByLabel('Price').fill('425000');
    await dialog.getByRole('combobox', { name: 'People' }).fill(lastName);
    await page.getByRole('option', { name: `Robin ${lastName}` }).click();
    // The choice shows as a chip before the next field is touched.
    await dialog.getByRole('button', { name: `Robin ${lastName}` }).waitFor();
    await dialog.getByRole('combobox', { name: 'Users' }).click();
    await page.getByRole('option', { name: colleague.name }).click();
    await dialog.getByRole('button', { name: 'Add deal' }).click();
    await dialog.waitFor({ state: 'detached' });
    const column = page.getByRole('region', { name: 'Under contract' });
    await column.getByRole('listitem', { name: dealName }).waitFor();

    const deals = await server.get(key, `/v1/deals?pipelineId=${pipeline.body.id}`);
    const deal = deals.body.deals.find((d: { name: string }) => d.name === dealName);
    assert.ok(deal, 'the deal was created');
    assert.equal(deal.stageId, pipeline.body.stages[1].id);
    assert.equal(deal.price, 425000);
    assert.deepEqual(
      deal.people.map((p: { id: number }) => p.id),
      [person.body.id],
    );
    assert.deepEqual(
      deal.users.map((u: { id: number }) => u.id).sort(),
      [account.owner.id, colleague.id].sort(),
    );
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the board page is ${width}px wide on a phone`);
    await context.close();
  });
});
