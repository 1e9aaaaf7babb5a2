import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { eventually } from '../support/eventually.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

/** Whether a board column lies wholly within the board's visible width. */
async function inView(page: Page, column: string): Promise<boolean> {
  return page.getByRole('region', { name: column }).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const row = el.parentElement!.getBoundingClientRect();
    return box.left >= row.left - 1 && box.right <= row.right + 1;
  });
}

describe('a deal card opens the deal for editing', () => {
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

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`changes the price and close date, then deletes it (${size})`, async () => {
      const account = await server.newAccount();
      const key = account.owner.key;
      // A new account's default pipeline: New … Under contract, Won, Lost.
      const [sales] = (await server.get(key, '/v1/pipelines')).body.pipelines;
      const stage = (name: string) =>
        sales.stages.find((s: { name: string }) => s.name === name).id as number;
      const name = unique('12 Elm St');
      const deal = await server.post(key, '/v1/deals', {
        name,
        stageId: stage('Showing'),
        price: 300000,
      });
      assert.equal(deal.status, 201, deal.text);
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto('/deals');
      await page.getByRole('button', { name: `Open ${name}` }).click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.getByLabel('Price').fill('325,000');
      await dialog.getByLabel('Close date').fill('2027-03-31');
      await shot(page, `deal-edit-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Deal saved').waitFor();
      const saved = (await server.get(key, `/v1/deals/${deal.body.id}`)).body;
      assert.deepEqual([saved.price, saved.projectedCloseDate], [325000, '2027-03-31']);

      await page.getByRole('button', { name: `Open ${name}` }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Yes, delete this deal' }).click();
      await page.getByText('Deal deleted').waitFor();
      await page.getByRole('button', { name: `Open ${name}` }).waitFor({ state: 'detached' });
      const after = await server.get(key, `/v1/deals/${deal.body.id}`);
      // Deals are deleted softly: kept with status Deleted, off the board.
      assert.equal(after.body.status, 'Deleted', after.text);
      await context.close();
    });

    it(`marks deals won and lost, and hints at columns out of view (${size})`, async () => {
      const account = await server.newAccount();
      const key = account.owner.key;
      const [sales] = (await server.get(key, '/v1/pipelines')).body.pipelines;
      const stage = (name: string) =>
        sales.stages.find((s: { name: string }) => s.name === name).id as number;
      const names = [unique('4 Oak Ave'), unique('9 Pine Rd')];
      const ids: number[] = [];
      for (const name of names)
        ids.push(
          (await server.post(key, '/v1/deals', { name, stageId: stage('Offer'), price: 410000 }))
            .body.id,
        );
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto('/deals');
      // Six stages do not fit: the board says so and scrolls to them.
      const more = page.getByRole('button', { name: 'More stages' });
      await more.waitFor();
      const lostColumn = page.getByRole('region', { name: 'Lost' });
      assert.equal(await lostColumn.isVisible(), true);
      assert.equal(await inView(page, 'Lost'), false);
      await shot(page, `deals-scroll-hint-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);

      await page.getByRole('button', { name: `Open ${names[0]}` }).click();
      const dialog = page.getByRole('dialog', { name: names[0] });
      await dialog.getByText('Stage: Offer').waitFor();
      await shot(page, `deal-won-lost-${size}`);
      await dialog.getByRole('button', { name: 'Mark won' }).click();
      await page.getByText(`${names[0]} marked won`).waitFor();
      await page.getByRole('button', { name: `Open ${names[1]}` }).click();
      await page
        .getByRole('dialog', { name: names[1] })
        .getByRole('button', { name: 'Mark lost' })
        .click();
      await page.getByText(`${names[1]} marked lost`).waitFor();
      const stages = await Promise.all(
        ids.map(async (id) => (await server.get(key, `/v1/deals/${id}`)).body.stageId),
      );
      assert.deepEqual(stages, [stage('Won'), stage('Lost')]);

      // Reopened, a won deal says so.
      await page.getByRole('button', { name: `Open ${names[0]}` }).click();
      await dialog.getByRole('status').filter({ hasText: 'Won: this deal is in Won.' }).waitFor();
      assert.equal(await dialog.getByRole('button', { name: 'Mark won' }).count(), 0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      for (let i = 0; i < 6 && !(await inView(page, 'Lost')); i++) {
        // A smooth scroll can reach the end, and hide the button, while a click waits for it.
        if (await more.isVisible()) await more.click({ timeout: 2_000 }).catch(() => undefined);
        await page.waitForTimeout(400);
      }
      await eventually('the Lost column scrolled into view', () => inView(page, 'Lost'));
      await page.getByRole('button', { name: 'Earlier stages' }).waitFor();
      await context.close();
    });
  }
});
