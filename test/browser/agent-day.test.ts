import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, unique, type TestAccount, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  searchPeople,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';

/** Screenshots to look at, when SCREENSHOT_DIR is set. */
/** Applies the open bulk dialog's action, waits for the job's result in it, and closes it. */
async function applyBulk(page: Page, button: string, result: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: button }).click();
  await dialog.getByRole('status').filter({ hasText: result }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function noViolations(page: Page) {
  assert.deepEqual(await seriousA11yViolations(page), []);
}

describe('the agent’s day: bulk actions, duplicates, merge', () => {
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
    it(`selects people and assigns, tags, restages and deletes them all at once (${size})`, async () => {
      const key = account.owner.key;
      const ava = await account.addUser('Agent', unique('Ava'));
      const family = unique('Bulk');
      const ids: number[] = [];
      for (const first of ['Ann', 'Ben', 'Cal', 'Dee'])
        ids.push((await server.newPerson(key, { firstName: first, lastName: family })).id);
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await searchPeople(page, family);
      await page.getByRole('link', { name: `Ann ${family}` }).waitFor();
      await page.getByRole('link', { name: `Ben ${family}` }).waitFor();
      for (const first of ['Ann', 'Ben', 'Cal'])
        await page.getByRole('checkbox', { name: `Select ${first} ${family}` }).check();
      await shot(page, `bulk-selected-${size}`);
      await noViolations(page);

      await page.getByRole('button', { name: 'Assign' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Agent').click();
      await page.getByRole('option', { name: ava.name }).click();
      await shot(page, `bulk-assign-${size}`);
      await noViolations(page);
      await applyBulk(page, 'Apply', `Assigned 3 people to ${ava.name}.`);
      const assigned = async (id: number) =>
        (await server.get(key, `/v1/people/${id}`)).body.assignedUserId;
      assert.deepEqual(await Promise.all(ids.map(assigned)), [ava.id, ava.id, ava.id, null]);

      for (const first of ['Ann', 'Dee'])
        await page.getByRole('checkbox', { name: `Select ${first} ${family}` }).check();
      await page.getByRole('button', { name: 'Add tag' }).click();
      await page.getByRole('dialog').getByLabel('Tag').fill('open-house');
      await applyBulk(page, 'Apply', 'Tag open-house added to 2 people.');

      await page.getByRole('checkbox', { name: `Select Ben ${family}` }).check();
      await page.getByRole('button', { name: 'Change stage' }).click();
      await page.getByRole('dialog').getByLabel('Stage').click();
      await page.getByRole('option', { name: 'Prospect' }).click();
      await applyBulk(page, 'Apply', 'Moved 1 person to Prospect.');

      const people = await Promise.all(
        ids.map(async (id) => (await server.get(key, `/v1/people/${id}`)).body),
      );
      assert.deepEqual(
        people.map((p) => [p.tags, p.stage]),
        [
          [['open-house'], 'Lead'],
          [[], 'Prospect'],
          [[], 'Lead'],
          [['open-house'], 'Lead'],
        ],
      );

      await page.getByRole('checkbox', { name: `Select Cal ${family}` }).check();
      await page.getByRole('button', { name: 'Delete' }).click();
      await applyBulk(page, 'Delete', 'Deleted 1 person.');
      await page.getByRole('link', { name: `Cal ${family}` }).waitFor({ state: 'detached' });
      assert.equal((await server.get(key, `/v1/people/${ids[2]}`)).status, 404);
      await context.close();
    });
  }

  it('New person with an email someone has names them and creates nothing unless confirmed', async () => {
    const key = account.owner.key;
    const address = `${unique('emily')}@example.com`.toLowerCase();
    const emily = await server.newPerson(key, {
      firstName: 'Emily',
      lastName: 'Carter',
      emails: [address],
    });
    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.getByRole('link', { name: 'New person' }).click();
    await page.getByLabel('First name').fill('Em');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'already has this email' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Emily Carter already has this email/);
    await shot(page, 'new-person-duplicate-phone');
    await noViolations(page);
    const matches = async () =>
      (await server.get(key, `/v1/people?email=${encodeURIComponent(address)}`)).body.people.length;
    assert.equal(await matches(), 1);
    await alert.getByRole('link', { name: 'Open Emily Carter' }).click();
    await page.getByRole('heading', { name: 'Emily Carter', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/people/${emily.id}`);

    await page.goto('/people/create');
    await page.getByLabel('First name').fill('Em');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Save' }).click();
    await alert.getByRole('button', { name: 'Create anyway' }).click();
    await page.getByRole('heading', { name: 'Em', level: 1, exact: true }).waitFor();
    assert.equal(await matches(), 2);
    await context.close();
  });

  it('the Merge button merges a duplicate picked side by side, keeping the fields chosen', async () => {
    const key = account.owner.key;
    const family = unique('Nguyen');
    const jacob = await server.newPerson(key, {
      firstName: 'Jacob',
      lastName: family,
      emails: [`${family}-jacob@example.com`.toLowerCase()],
    });
    const jake = await server.newPerson(key, {
      firstName: 'Jake',
      lastName: family,
      phones: ['555 010 7788'],
      source: 'Zillow',
      stage: 'Prospect',
    });
    const note = await server.post(key, '/v1/notes', { personId: jake.id, body: 'Wants a yard' });
    assert.equal(note.status, 201, note.text);
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto(`/people/${jacob.id}`);
    await page.getByRole('heading', { name: `Jacob ${family}`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Merge' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: new RegExp(`Jake ${family}`) }).click();
    await dialog.getByRole('radio', { name: 'Stage: Prospect' }).check();
    await shot(page, 'merge-side-by-side-laptop');
    await noViolations(page);
    await dialog.getByRole('button', { name: 'Merge these two' }).click();
    await page.getByText(`Merged Jake ${family} into Jacob ${family}`).waitFor();
    await page.getByText('Wants a yard').waitFor();
    const kept = (await server.get(key, `/v1/people/${jacob.id}`)).body;
    assert.deepEqual(
      [kept.name, kept.stage, kept.source, kept.phones.length],
      [`Jacob ${family}`, 'Prospect', 'Zillow', 1],
    );
    assert.equal((await server.get(key, `/v1/people/${jake.id}`)).status, 404);
    await page.getByText('Stage: Lead → Prospect').waitFor();
    await shot(page, 'merged-person-laptop');
    await context.close();
  });
});
