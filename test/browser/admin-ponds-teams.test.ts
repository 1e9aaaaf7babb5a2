import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, shot, signedInPage } from './browser.js';

interface Pond {
  id: number;
  name: string;
  userId: number | null;
  userIds: number[];
}
interface Team {
  id: number;
  name: string;
  leaderIds: number[];
  userIds: number[];
}

/** Admin → Ponds and teams: who sees which people beyond their own. */
describe('ponds and teams in the browser', () => {
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

  /** Picks `name` in the dialog's autocomplete `label` (react-admin's AutocompleteArrayInput). */
  async function pick(page: Page, label: string, name: string) {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: label }).fill(name.slice(0, 3));
    await page.getByRole('option', { name }).click();
  }

  it('an Owner makes a pond with a lead agent and members, a team with a leader, edits and deletes them (laptop)', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const ava = await account.addUser('Agent', 'Ava Stone');
    const ben = await account.addUser('Agent', 'Ben Ortiz');
    assert.equal((await server.put(key, '/v1/me', { name: 'Olivia Grant' })).status, 200);
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto('/admin');
    await page.getByRole('link', { name: /Ponds and teams/ }).click();
    await page.getByRole('heading', { name: 'Ponds and teams', level: 1 }).waitFor();
    await page.getByText('No ponds yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'New pond' }).click();
    const newPond = page.getByRole('dialog', { name: 'New pond' });
    await newPond.getByLabel('Pond name').fill('Open house leads');
    await newPond.getByRole('combobox', { name: 'Lead agent' }).click();
    await page.getByRole('option', { name: 'Ava Stone' }).click();
    await pick(page, 'Members', 'Ava Stone');
    await pick(page, 'Members', 'Ben Ortiz');
    await newPond.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Pond Open house leads saved');
    const ponds = async () => (await server.get(key, '/v1/ponds')).body.ponds as Pond[];
    const [pond] = await ponds();
    assert.deepEqual(
      { name: pond?.name, userId: pond?.userId, userIds: [...(pond?.userIds ?? [])].sort() },
      { name: 'Open house leads', userId: ava.id, userIds: [ava.id, ben.id].sort() },
    );
    await page.getByText('Lead agent: Ava Stone').waitFor();

    await page.getByRole('button', { name: 'New team' }).click();
    const newTeam = page.getByRole('dialog', { name: 'New team' });
    await newTeam.getByLabel('Team name').fill('North');
    await pick(page, 'Leaders', 'Ava Stone');
    await pick(page, 'Members', 'Ben Ortiz');
    await newTeam.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Team North saved');
    await page.getByText('Led by Ava Stone').waitFor();
    const [team] = (await server.get(key, '/v1/teams')).body.teams as Team[];
    assert.deepEqual(
      { name: team?.name, leaderIds: team?.leaderIds, userIds: team?.userIds },
      { name: 'North', leaderIds: [ava.id], userIds: [ben.id] },
    );
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'admin-ponds-teams-laptop');

    // Rename the pond and let Ben go.
    await page.getByRole('button', { name: 'Edit pond Open house leads' }).click();
    const editPond = page.getByRole('dialog', { name: 'Edit pond Open house leads' });
    await editPond.getByLabel('Pond name').fill('Website leads');
    await editPond.getByRole('button', { name: 'Ben Ortiz' }).press('Delete');
    await editPond.getByRole('button', { name: 'Ben Ortiz' }).waitFor({ state: 'detached' });
    await editPond.getByRole('heading', { name: 'Edit pond Open house leads' }).click();
    await editPond.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Pond Website leads saved');
    const [renamed] = await ponds();
    assert.deepEqual(
      { name: renamed?.name, userIds: renamed?.userIds },
      {
        name: 'Website leads',
        userIds: [ava.id],
      },
    );

    // Deleting the pond hands its people to the agent chosen.
    const person = await server.newPerson(key, { firstName: 'Pia', lastName: 'Pond' });
    assert.equal(
      (await server.put(key, `/v1/people/${person.id}`, { assignedPondId: pond!.id })).status,
      200,
    );
    await page.getByRole('button', { name: 'Delete pond Website leads' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete pond Website leads?' });
    await remove.getByText('1 person is in this pond', { exact: false }).waitFor();
    await remove.getByRole('combobox', { name: 'Its people go to' }).click();
    await page.getByRole('option', { name: 'Ben Ortiz' }).click();
    await remove.getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Pond Website leads deleted');
    assert.deepEqual(await ponds(), []);
    assert.equal((await server.get(key, `/v1/people/${person.id}`)).body.assignedUserId, ben.id);

    await page.getByRole('button', { name: 'Delete team North' }).click();
    await page
      .getByRole('dialog', { name: 'Delete team North?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await told(page, 'Team North deleted');
    assert.deepEqual((await server.get(key, '/v1/teams')).body.teams, []);
    await context.close();
  });

  it('reads well on a phone; an Agent may not write (phone)', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const agent = await account.addUser('Agent', 'Ava Stone');
    const lena = await account.addUser('Agent', 'Lena Marsh-Oduya');
    await server.post(key, '/v1/ponds', {
      name: 'Expired listings',
      userId: agent.id,
      userIds: [agent.id, lena.id],
    });
    await server.post(key, '/v1/teams', {
      name: 'Downtown',
      leaderIds: [lena.id],
      userIds: [agent.id],
    });

    const { context: owner, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.goto('/admin/ponds-teams');
    await page.getByText('Lead agent: Ava Stone').waitFor();
    await page.getByText('Led by Lena Marsh-Oduya').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'admin-ponds-teams-phone');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, 'nothing sticks out sideways on a phone');
    await owner.close();
    // The screen is the admin area's (an Agent is kept out: admin-smart-lists); the API refuses too.
    assert.equal((await server.post(agent.key, '/v1/ponds', { name: 'Mine' })).status, 403);
    assert.equal((await server.post(agent.key, '/v1/teams', { name: 'Mine' })).status, 403);
  });
});
