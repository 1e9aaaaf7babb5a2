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
import { smallTapTargets } from './tap-targets.js';

describe('the top bar: global search, notifications, a phone-sized bar', () => {
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
    it(`finds people by name, email and phone, deals and tasks by name, by keyboard (${size})`, async () => {
      const key = account.owner.key;
      const family = unique('Hopper');
      const email = `${unique('grace')}@example.com`.toLowerCase();
      const phone = `555-01${String(Date.now()).slice(-2)}-${size === 'phone' ? 7788 : 7799}`;
      const grace = await server.newPerson(key, {
        firstName: 'Grace',
        lastName: family,
        emails: [{ value: email }],
        phones: [{ value: phone }],
      });
      await server.newPerson(key, { firstName: 'Gracie', lastName: family });
      const pipeline = await server.post(key, '/v1/pipelines', {
        name: 'Buyers',
        stages: [{ name: 'Offer' }],
      });
      const dealName = `${unique('Garden')} Lane`;
      const deal = await server.post(key, '/v1/deals', {
        name: dealName,
        stageId: pipeline.body.stages[0].id,
        price: 410000,
      });
      assert.equal(deal.status, 201, deal.text);
      const taskName = `Send ${unique('Quince')} comps`;
      const task = await server.post(key, '/v1/tasks', { personId: grace.id, name: taskName });
      assert.equal(task.status, 201, task.text);

      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      const box = page.getByRole('combobox', { name: 'Search people, deals and tasks' });

      // "/" opens it; results follow the typing; the arrow keys move and Enter opens.
      await page.locator('body').press('/');
      await box.fill(family.toLowerCase());
      const people = page.getByRole('group', { name: 'People' });
      await people.getByRole('option', { name: new RegExp(`Gracie ${family}`) }).waitFor();
      await people.getByRole('option', { name: new RegExp(`Grace ${family}`) }).waitFor();
      await shot(page, `search-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      const options = page.getByRole('option');
      const names = await options.allInnerTexts();
      const target = names.findIndex((text) => text.startsWith(`Grace ${family}`));
      for (let i = 0; i < target; i++) await box.press('ArrowDown');
      assert.equal(await options.nth(target).getAttribute('aria-selected'), 'true');
      await box.press('Enter');
      await page.getByRole('heading', { name: `Grace ${family}`, level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/people/${grace.id}`);

      // Ctrl+K opens it from inside a text field too; an email and a phone find Grace.
      await page.getByLabel('Note').click();
      await page.keyboard.press('Control+k');
      await box.fill(email);
      await page.getByRole('option', { name: new RegExp(`Grace ${family}`) }).waitFor();
      await box.fill(phone.replace(/-/g, ' '));
      await page.getByRole('status').getByText('1 found').waitFor();
      await page.getByRole('option', { name: new RegExp(`Grace ${family}`) }).waitFor();

      // A deal opens on the Deals board, ready to edit.
      await box.fill(dealName.slice(0, 12).toLowerCase());
      await page
        .getByRole('group', { name: 'Deals' })
        .getByRole('option', { name: new RegExp(dealName) })
        .click();
      const dialog = page.getByRole('dialog', { name: dealName });
      assert.match(await dialog.getByLabel('Price').inputValue(), /^410,?000$/);
      assert.equal(new URL(page.url()).pathname, '/deals');

      // A task opens the person it is on.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      await box.fill(taskName.slice(5, 17).toLowerCase());
      const taskHit = page
        .getByRole('group', { name: 'Tasks' })
        .getByRole('option', { name: new RegExp(`${taskName}.*Grace ${family}`) });
      await taskHit.waitFor();
      await shot(page, `search-task-${size}`);
      await taskHit.click();
      await page.getByRole('heading', { name: `Grace ${family}`, level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/people/${grace.id}`);
      await page.getByText(taskName).first().waitFor();

      await page.keyboard.press('Control+k');
      await box.fill('zzqx nobody');
      await page.getByText('Nothing found for “zzqx nobody”').waitFor();
      await page.keyboard.press('Escape');
      await box.waitFor({ state: 'detached' });
      await context.close();
    });
  }

  it('shows unread notifications on the bell; opening one marks it read and opens the person', async () => {
    const key = account.owner.key;
    const ava = await account.addUser('Agent', unique('Ava'));
    const first = await server.newPerson(key, { firstName: 'Samantha', lastName: unique('Ray') });
    const second = await server.newPerson(key, { firstName: 'Tom', lastName: unique('Lee') });
    for (const person of [first, second]) {
      const res = await server.put(key, `/v1/people/${person.id}`, { assignedUserId: ava.id });
      assert.equal(res.status, 200, res.text);
    }
    const { context, page } = await signedInPage(browser, server, ava, PHONE);
    await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const items = panel.getByRole('button', { name: /^Unread: / });
    await items.first().waitFor();
    assert.equal(await items.count(), 2);
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await shot(page, 'notifications-phone');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await panel.getByRole('button', { name: /Samantha/ }).click();
    await page.getByRole('heading', { name: /^Samantha /, level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/people/${first.id}`);
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await panel
      .getByRole('button', { name: /^Unread: / })
      .first()
      .waitFor({ state: 'detached' });
    // Mark all read disables itself; focus stays in the panel, so Escape closes it.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    // Marking read refetches the count; the event stream says it again within 3 s if that races.
    await page
      .getByRole('button', { name: 'Notifications', exact: true })
      .waitFor({ timeout: 10_000 });
    const left = await server.get(ava.key, '/v1/notifications?unread=true');
    assert.equal(left.body._metadata.total, 0);
    // A lead handed over now rings the bell without a reload, well before the 30 s poll would.
    const third = await server.newPerson(key, { firstName: 'Una', lastName: unique('Park') });
    const handed = await server.put(key, `/v1/people/${third.id}`, { assignedUserId: ava.id });
    assert.equal(handed.status, 200, handed.text);
    await page
      .getByRole('button', { name: 'Notifications, 1 unread' })
      .waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('on a phone the bar fits 390 px and the main screens have 44 px tap targets, no sideways scroll', async () => {
    const key = account.owner.key;
    const person = await server.newPerson(key, {
      firstName: 'Phoebe',
      lastName: unique('Buchanan-Whitfield'),
      phones: [{ value: '555-010-2233' }],
      tags: ['buyer'],
    });
    await server.post(key, '/v1/tasks', { personId: person.id, name: 'Call back about the loft' });
    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    const screens = [
      { path: '/people', ready: page.getByRole('heading', { name: 'People', level: 1 }) },
      { path: `/people/${person.id}`, ready: page.getByLabel('Note') },
      { path: '/my-day', ready: page.getByRole('heading', { name: 'My day', level: 1 }) },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready.waitFor();
      await page.getByRole('progressbar').first().waitFor({ state: 'detached' });
      const bar = await page.getByRole('banner').boundingBox();
      assert.ok(bar && bar.width <= PHONE.width, `${screen.path}: the bar is ${bar?.width}px`);
      for (const name of [
        /^Search people, deals and tasks$/,
        /^Notifications/,
        /^Your account/,
        /^Sign out$/,
      ]) {
        const control = page
          .getByRole('banner')
          .getByRole(name.source.includes('account') ? 'link' : 'button', { name });
        const b = await control.boundingBox();
        assert.ok(
          b && b.x >= 0 && b.x + b.width <= PHONE.width,
          `${screen.path}: ${name} is off the bar`,
        );
      }
      assert.deepEqual(await smallTapTargets(page), [], `${screen.path}: small tap targets`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `${screen.path} is ${width}px wide`);
      await shot(page, `phone${screen.path.replace(/\//g, '-')}`);
    }
    await context.close();
  });
});
