import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, signedInPage } from './browser.js';

const sys = (s: { name: string; key: string }) => ({ 'x-system': s.name, 'x-system-key': s.key });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string) {
  for (let i = 0; i < 150; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('admin area: Systems (usage chart) and Webhooks (Owner) in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    // The worker delivers webhooks; rate limits at their defaults, so usage is counted.
    server = await startServer({
      worker: true,
      env: {
        HEARTH_RATE_LIMITS: '',
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_TIMEOUT: '1',
        HEARTH_WEBHOOK_RETRY_SCHEDULE: '30',
      },
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('Systems lists the registered systems with their hourly usage chart', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem('Website');
    for (let i = 0; i < 3; i += 1) await server.get(account.owner.key, '/v1/users', sys(system));
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto('/admin');
    await page.getByRole('link', { name: /Systems/ }).click();
    await page.getByRole('heading', { name: 'Systems', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: system.name });
    const chart = card.getByRole('img', {
      name: `Requests of ${system.name} per hour: 3 requests in 24 hours, 0 refused by the rate limit`,
    });
    await chart.waitFor();
    await card.getByText('Hourly figures').click();
    const table = card.getByRole('table', {
      name: `Requests of ${system.name} per hour, hour by hour`,
    });
    assert.equal(await table.getByRole('row').count(), 2, 'a header and the one busy hour');
    await page.getByRole('button', { name: '7 days' }).click();
    await card.getByRole('img', { name: /3 requests in 168 hours/ }).waitFor();
    await context.close();
  });

  it('an Owner registers, inspects, redelivers, disables and deletes a webhook; the key is never stored', async () => {
    const account = await server.newAccount();
    const owner = account.owner.key;
    const system = await server.newSystem('Dialer');
    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.goto(`/admin/webhooks?system=${encodeURIComponent(system.name)}`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText(`${system.name} has no webhooks in this account.`).waitFor();

    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook' });
    await form.getByLabel('Callback URL').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the New webhook dialog');
    await form.getByLabel('Callback URL').fill('https://127.0.0.1:9/hearth');
    await form.getByLabel('System key').fill('not-the-key');
    await form.getByRole('button', { name: 'Register' }).click();
    await page
      .getByText(/X-System-Key/)
      .first()
      .waitFor();
    assert.equal((await server.get(owner, '/v1/webhooks', sys(system))).body.webhooks.length, 0);
    await form.getByLabel('System key').fill(system.key);
    await form.getByRole('button', { name: 'Register' }).click();
    await form.waitFor({ state: 'detached' });
    const listed = await server.get(owner, '/v1/webhooks', sys(system));
    assert.equal(listed.body.webhooks.length, 1);
    const hook = listed.body.webhooks[0];
    assert.deepEqual([hook.event, hook.url], ['peopleCreated', 'https://127.0.0.1:9/hearth']);
    const row = page.getByRole('row', { name: /peopleCreated/ });
    await row.getByText('Active').waitFor();
    const stored = await page.evaluate(
      () =>
        JSON.stringify({ ...localStorage }) +
        JSON.stringify({ ...sessionStorage }) +
        document.cookie,
    );
    assert.ok(!stored.includes(system.key), 'the system key is in no JS-readable storage');
    assert.ok(!(await page.content()).includes(system.key), 'nor in the page');

    // A change to deliver; nothing listens on port 9, so the attempt fails.
    await server.post(owner, '/v1/people', { firstName: 'Hooked' });
    await page.getByRole('button', { name: `Attempts of webhook ${hook.id}` }).click();
    const attempts = page.getByRole('dialog', { name: `Delivery attempts of webhook ${hook.id}` });
    await attempts.getByText('Failed').first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await seriousA11yViolations(page), [], 'the attempts dialog');
    const first = await server.get(owner, `/v1/webhooks/${hook.id}/attempts`, sys(system));
    const eventId = first.body.attempts[0].eventId as string;
    await attempts
      .getByRole('button', { name: `Redeliver event ${eventId}` })
      .first()
      .click();
    await page.getByText('peopleCreated is being sent again').waitFor();
    const deliveries = await server.ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', hook.id)
      .execute();
    assert.ok(deliveries.length >= 2, 'the redelivery is queued as a new delivery');
    await attempts.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `Edit webhook ${hook.id}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit webhook ${hook.id}` });
    await edit.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Disabled' }).click();
    await edit.getByLabel('System key').fill(system.key);
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.getByText('Disabled').waitFor();
    await until(
      () => server.get(owner, `/v1/webhooks/${hook.id}`, sys(system)),
      (res) => res.body.status === 'Disabled',
      'the webhook to be disabled',
    );

    await page.getByRole('button', { name: `Delete webhook ${hook.id}` }).click();
    await page
      .getByRole('dialog', { name: `Delete webhook ${hook.id}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText(`${system.name} has no webhooks in this account.`).waitFor();
    assert.equal((await server.get(owner, `/v1/webhooks/${hook.id}`, sys(system))).status, 404);
    await assertNoWideScroll(page);
    await context.close();
  });

  it('an Admin sees Systems but not Webhooks in the admin area', async () => {
    const account = await server.newAccount();
    const admin = await account.addUser('Admin');
    const { context, page } = await signedInPage(browser, server, admin);
    await page.goto('/admin');
    await page.getByRole('link', { name: /Systems/ }).waitFor();
    assert.equal(await page.getByRole('link', { name: /Webhooks/ }).count(), 0);
    await context.close();
  });
});

async function assertNoWideScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= (page.viewportSize()?.width ?? 0), `page is ${width}px wide`);
}
