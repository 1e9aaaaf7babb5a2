import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { launchBrowser, signedInPage } from './browser.js';

describe('deals board and My day in the browser', () => {
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

  it('dragging a deal to another stage moves it', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: unique('Buyers'),
      stages: [{ name: 'Qualified' }, { name: 'Showing' }, { name: 'Offer' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const [qualified, , offer] = pipeline.body.stages;
    const dealName = unique('Elm St purchase');
    const deal = await server.post(key, '/v1/deals', {
      name: dealName,
      pipelineId: pipeline.body.id,
      stageId: qualified.id,
      price: 350000,
    });
    assert.equal(deal.status, 201, deal.text);

    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto('/deals');
    // Beside the account's default pipeline (Sales): open this test's own.
    await page.getByRole('tab', { name: pipeline.body.name }).click();
    const card = page.getByRole('listitem', { name: dealName });
    const offerColumn = page.getByRole('region', { name: 'Offer' });
    await card.dragTo(offerColumn);
    await offerColumn.getByRole('listitem', { name: dealName }).waitFor();
    for (let i = 0; i < 50; i += 1) {
      const now = await server.get(key, `/v1/deals/${deal.body.id}`);
      if (now.body.stageId === offer.id) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const moved = await server.get(key, `/v1/deals/${deal.body.id}`);
    assert.equal(moved.body.stageId, offer.id);
    await context.close();
  });

  it("My day lists the user's tasks due today and completes one with one click", async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const person = await server.post(agent.key, '/v1/people', {
      firstName: 'Dee',
      lastName: 'Day',
    });
    const taskName = unique('Call back');
    const task = await server.post(agent.key, '/v1/tasks', {
      personId: person.body.id,
      name: taskName,
      type: 'Call',
      assignedUserId: agent.id,
      dueDate: new Date().toISOString().slice(0, 10),
    });
    assert.equal(task.status, 201, task.text);

    const { context, page } = await signedInPage(browser, server, agent);
    await page.getByRole('menuitem', { name: 'My day' }).click();
    await page.getByRole('heading', { name: 'My day', level: 1 }).waitFor();
    const today = page.getByRole('region', { name: /^Today/ });
    await today.getByText(taskName).waitFor();
    await today.getByRole('checkbox', { name: `Complete ${taskName}` }).click();
    await today.getByText(taskName).waitFor({ state: 'detached' });
    const done = await server.get(agent.key, `/v1/tasks/${task.body.id}`);
    assert.equal(done.body.isCompleted, true);
    await context.close();
  });
});
