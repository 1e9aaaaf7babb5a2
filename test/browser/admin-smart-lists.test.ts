import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, shot, signedInPage } from './browser.js';

interface StoredList {
  id: number;
  name: string;
  userId: number;
  isShared: boolean;
  filters: Record<string, unknown>;
}

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const peopleWith = (filter: object) =>
  `/people?filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** Smart lists in the app: an Agent's own lists from the People list's filters, shared lists. */
describe('smart lists in the browser', () => {
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

  const told = (page: Page, text: string) => page.getByText(text).last().waitFor();

  it('an Agent saves the People filters as a list, edits, opens and deletes it; a shared one is read-only (laptop)', async () => {
    const account = await server.newAccount();
    const owner = account.owner.key;
    const agent = await account.addUser('Agent', 'Ava Stone');
    assert.equal((await server.put(owner, '/v1/me', { name: 'Olivia Grant' })).status, 200);
    const tag = unique('buyer').toLowerCase();
    const buyer = await server.newPerson(owner, {
      firstName: 'Bea',
      lastName: 'Buyer',
      tags: [tag],
      assignedUserId: agent.id,
    });
    await server.newPerson(owner, {
      firstName: 'Sid',
      lastName: 'Seller',
      assignedUserId: agent.id,
    });
    const shared = await server.post(owner, '/v1/smartLists', {
      name: 'Team hot leads',
      filters: { stage: 'Hot Prospect' },
      isShared: true,
    });
    assert.equal(shared.status, 201);

    const { context, page } = await signedInPage(browser, server, agent);
    await page.goto(peopleWith({ tags: tag }));
    await page.getByRole('link', { name: 'Bea Buyer' }).waitFor();
    await page.getByRole('link', { name: 'Sid Seller' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save as smart list' }).click();
    const create = page.getByRole('dialog', { name: 'New smart list' });
    assert.equal(await create.getByLabel('Tags').inputValue(), tag);
    await create.getByLabel('Smart list name').fill('My buyers');
    await create.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Smart list My buyers saved');
    const mine = async () =>
      (
        (await server.get(agent.key, '/v1/smartLists?limit=100')).body.smartlists as StoredList[]
      ).find((l) => l.userId === agent.id);
    const saved = await mine();
    assert.deepEqual(
      { name: saved?.name, filters: saved?.filters, isShared: saved?.isShared },
      { name: 'My buyers', filters: { tags: tag }, isShared: false },
    );

    await page.getByRole('menuitem', { name: 'Smart lists' }).click();
    await page.getByRole('heading', { name: 'Smart lists', level: 1 }).waitFor();
    await page.getByText('My buyers', { exact: true }).waitFor();
    // The Owner's shared list: the Agent opens it but may not change it (the API would refuse).
    await page.getByText('Shared by Olivia Grant').waitFor();
    await page.getByRole('link', { name: 'Open Team hot leads' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /smart list Team hot leads/ }).count(), 0);

    await page.getByRole('button', { name: 'Edit smart list My buyers' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit smart list My buyers' });
    await edit.getByLabel('Smart list name').fill('Buyers, leads');
    await edit.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Lead', exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'smart-list-edit-laptop');
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Smart list Buyers, leads saved');
    const edited = await mine();
    const lead = (await server.get(owner, '/v1/stages?limit=100')).body.stages.find(
      (s: { name: string }) => s.name === 'Lead',
    );
    assert.deepEqual(edited?.filters, { tags: tag, stageId: lead.id });
    await page.getByText(`Stage: Lead`).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'smart-lists-laptop');

    await page.getByRole('link', { name: 'Open Buyers, leads' }).click();
    await page.getByRole('heading', { name: 'People' }).waitFor();
    await page.getByRole('link', { name: 'Bea Buyer' }).waitFor();
    assert.equal((await server.get(owner, `/v1/people/${buyer.id}`)).body.stage, 'Lead');

    await page.goto('/smart-lists');
    await page.getByRole('button', { name: 'Delete smart list Buyers, leads' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Smart list Buyers, leads deleted');
    assert.equal(await mine(), undefined);
    await page.getByRole('link', { name: 'Open Team hot leads' }).waitFor();

    // The rest of item 10 is the admin area's: no Admin in an Agent's menu, and kept out of it.
    assert.equal(await page.getByRole('menuitem', { name: 'Admin' }).count(), 0);
    for (const screen of ['text-templates', 'ponds-teams']) {
      await page.goto(`/admin/${screen}`);
      await page.getByText('The admin area is for Owners and Admins.').waitFor();
      assert.equal(await page.getByRole('button', { name: /^New / }).count(), 0);
    }
    await context.close();
  });

  it('an Owner makes a shared list with a stage and changes anyone’s shared list (phone)', async () => {
    const account = await server.newAccount();
    const owner = account.owner.key;
    const agent = await account.addUser('Agent', 'Ben Agent');
    const agentList = await server.post(agent.key, '/v1/smartLists', {
      name: 'Ben shares',
      filters: { source: 'Zillow', priceAbove: 400000 },
      isShared: true,
    });
    const { context, page } = await signedInPage(browser, server, account.owner, PHONE);
    // Signed in on the People list: its toolbar takes the new button without spilling sideways.
    await page.getByRole('button', { name: 'Save as smart list' }).waitFor();
    await shot(page, 'people-toolbar-phone');
    assert.equal(await sidewaysOverflow(page), 0, 'the People list fits a phone');
    await page.goto('/smart-lists');
    await page.getByRole('heading', { name: 'Smart lists', level: 1 }).waitFor();
    await page.getByText('Shared by Ben Agent').waitFor();
    await page.getByText('Source: Zillow').waitFor();
    await page.getByText('Price above: 400000').waitFor();

    await page.getByRole('button', { name: 'New smart list' }).click();
    const create = page.getByRole('dialog', { name: 'New smart list' });
    await create.getByLabel('Smart list name').fill('Nurture everyone');
    await create.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Nurture' }).click();
    await create.getByLabel('Shared with the whole team').check();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'smart-list-new-phone');
    await create.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Smart list Nurture everyone saved');
    await page.getByText('Stage: Nurture').waitFor();
    await page.getByText('Shared by you').waitFor();
    const lists = (await server.get(owner, '/v1/smartLists?limit=100')).body
      .smartlists as StoredList[];
    const made = lists.find((l) => l.name === 'Nurture everyone');
    assert.equal(made?.isShared, true);
    assert.equal(made?.userId, account.owner.id);

    // An Owner may rename the Agent's shared list; filters the form has no input for are kept.
    await page.getByRole('button', { name: 'Edit smart list Ben shares' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit smart list Ben shares' });
    await edit.getByLabel('Smart list name').fill('Zillow, over 400k');
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Smart list Zillow, over 400k saved');
    const renamed = (await server.get(owner, `/v1/smartLists/${agentList.body.id}`)).body;
    assert.equal(renamed.name, 'Zillow, over 400k');
    assert.deepEqual(renamed.filters, { source: 'Zillow', priceAbove: 400000 });
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'smart-lists-phone');
    assert.equal(await sidewaysOverflow(page), 0, 'nothing sticks out sideways on a phone');
    await context.close();
  });
});
