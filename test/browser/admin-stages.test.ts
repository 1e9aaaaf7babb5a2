import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';
import { smallTapTargets } from './tap-targets.js';

describe('stages renamed and deleted in the app', () => {
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
    it(`renames a stage, and deletes one after asking where its people go (${size})`, async () => {
      const account = await server.newAccount();
      const key = account.owner.key;
      const family = unique('Staged');
      const people = [];
      for (const first of ['Ann', 'Ben'])
        people.push(
          await server.newPerson(key, { firstName: first, lastName: family, stage: 'Sphere' }),
        );
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      await page.goto('/admin/stages');
      const list = page.getByRole('list', { name: 'Stages in order' });
      await list.getByRole('listitem', { name: 'Prospect' }).waitFor();
      assert.equal(await page.getByText(/orderWeight/).count(), 0);
      // Built-in stages cannot be renamed or deleted: no buttons offer it.
      assert.equal(await page.getByRole('button', { name: 'Rename: Lead' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Delete: Trash' }).count(), 0);
      if (viewport === PHONE) {
        // A phone reads the list: names break between words only, every control is a 44 px target.
        const name = list.getByRole('listitem', { name: 'Unresponsive' }).getByText('Unresponsive');
        const box = await name.boundingBox();
        assert.ok(box && box.height < 30, `"Unresponsive" takes ${box?.height}px: split mid-word`);
        assert.deepEqual(await smallTapTargets(page), []);
      }

      await page.getByRole('button', { name: 'Rename: Prospect' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename Prospect' });
      await rename.getByLabel('Name').fill('Qualified');
      await rename.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Prospect renamed to Qualified').waitFor();
      await list.getByRole('listitem', { name: 'Qualified' }).waitFor();

      await page.getByRole('button', { name: 'Delete: Sphere' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete Sphere?' });
      await remove.getByText('2 people are in this stage.').waitFor();
      await remove.getByLabel('Move its people to').click();
      await page.getByRole('option', { name: 'Nurture' }).click();
      await shot(page, `stage-delete-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await remove.getByRole('button', { name: 'Delete stage' }).click();
      await page.getByText('Sphere deleted; its people moved to Nurture').waitFor();
      await list.getByRole('listitem', { name: 'Sphere' }).waitFor({ state: 'detached' });
      await shot(page, `stages-${size}`);

      const stages = (await server.get(key, '/v1/stages?limit=100')).body.stages.map(
        (s: { name: string }) => s.name,
      );
      assert.ok(stages.includes('Qualified') && !stages.includes('Prospect'));
      assert.ok(!stages.includes('Sphere'));
      for (const person of people)
        assert.equal((await server.get(key, `/v1/people/${person.id}`)).body.stage, 'Nurture');
      await context.close();
    });
  }
});
