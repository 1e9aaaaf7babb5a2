import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { launchBrowser, signedInPage } from './browser.js';

describe('people in the browser', () => {
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

  it('an Agent sees only their people, and Search narrows the list', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const mine = unique('Mine');
    const theirs = unique('Theirs');
    for (const [lastName, assignedUserId] of [
      [mine, agent.id],
      [`${mine}-two`, agent.id],
      [theirs, account.owner.id],
    ] as const) {
      const res = await server.post(account.owner.key, '/v1/people', {
        firstName: 'Pat',
        lastName,
        assignedUserId,
      });
      assert.equal(res.status, 201, res.text);
    }
    const { context, page } = await signedInPage(browser, server, agent);
    await page.getByRole('link', { name: `Pat ${mine}`, exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: `Pat ${mine}-two` }).count(), 1);
    assert.equal(await page.getByRole('link', { name: `Pat ${theirs}` }).count(), 0);

    await page.getByLabel('Search').fill(`${mine}-two`);
    await page
      .getByRole('link', { name: `Pat ${mine}`, exact: true })
      .waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('link', { name: `Pat ${mine}-two` }).count(), 1);
    await context.close();
  });

  it('New person creates a Manually made person and opens their page; a note lands on the timeline; a field edit saves', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { context, page } = await signedInPage(browser, server, agent);

    const lastName = unique('Rivera');
    await page.getByRole('link', { name: 'New person' }).click();
    await page.getByLabel('First name').fill('Jo');
    await page.getByLabel('Last name').fill(lastName);
    await page.getByLabel('Email').fill(`${lastName.toLowerCase()}@example.com`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: `Jo ${lastName}`, level: 1 }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const created = await server.get(agent.key, `/v1/people/${id}`);
    assert.equal(created.body.createdVia, 'Manually');
    assert.equal(created.body.assignedUserId, agent.id);
    assert.deepEqual(
      created.body.emails.map((e: { value: string }) => e.value),
      [`${lastName.toLowerCase()}@example.com`],
    );

    const noteText = `Prefers mornings ${unique('n')}`;
    await page.getByLabel('Note').fill(noteText);
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText(noteText).waitFor();
    const notes = await server.get(agent.key, `/v1/notes?personId=${id}`);
    assert.equal(notes.body.notes[0].body, noteText);

    // Fields are saved in place: Enter saves one, leaving a field saves it too.
    await page.getByLabel('Last name').fill(`${lastName}-Smith`);
    await page.getByLabel('Last name').press('Enter');
    await page.getByRole('status').getByText('Last name saved').waitFor();
    await page.getByRole('heading', { name: `Jo ${lastName}-Smith`, level: 1 }).waitFor();
    await page.getByLabel('Source').fill('Open house');
    await page.getByLabel('Note').click();
    await page.getByRole('status').getByText('Source saved').waitFor();
    const edited = await server.get(agent.key, `/v1/people/${id}`);
    assert.equal(edited.body.lastName, `${lastName}-Smith`);
    assert.equal(edited.body.source, 'Open house');
    await context.close();
  });
});
