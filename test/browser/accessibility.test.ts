import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  PHONE,
  launchBrowser,
  newContext,
  seriousA11yViolations,
  signInUser,
} from './browser.js';

/** A person with something of every common kind on their timeline, and a deal on a board. */
async function seed(server: TestServer, key: string, ownerId: number): Promise<number> {
  const person = await server.post(key, '/v1/people', {
    firstName: 'Ada',
    lastName: 'Access',
    emails: [{ value: 'ada@example.com' }],
    phones: [{ value: '555-010-2000' }],
    tags: ['buyer'],
  });
  const personId = person.body.id as number;
  const note = await server.post(key, '/v1/notes', { personId, body: 'Wants a garden.' });
  await server.post(key, '/v1/threadedReplies', {
    refType: 'Note',
    refId: note.body.id,
    body: 'Sent two listings.',
  });
  await server.post(key, '/v1/calls', { personId, phone: '555-010-2000', outcome: 'Interested' });
  await server.post(key, '/v1/tasks', {
    personId,
    name: 'Send listings',
    type: 'Email',
    assignedUserId: ownerId,
    dueDate: new Date().toISOString().slice(0, 10),
  });
  const pipeline = await server.post(key, '/v1/pipelines', {
    name: 'Buyers',
    stages: [{ name: 'Qualified' }, { name: 'Offer' }],
  });
  await server.post(key, '/v1/deals', {
    name: 'Garden house',
    pipelineId: pipeline.body.id,
    stageId: pipeline.body.stages[0].id,
    peopleIds: [personId],
  });
  await seedAdmin(server, key);
  return personId;
}

/** A registered system with a webhook in the account (stored directly: no DNS check of its URL). */
async function seedWebhook(server: TestServer, accountId: number): Promise<string> {
  const system = await server.newSystem('Axe');
  const at = new Date().toISOString().slice(0, 19) + 'Z';
  await server.ctx.db
    .insertInto('webhooks')
    .values({
      account_id: accountId,
      system: system.name,
      event: 'peopleCreated',
      url: 'https://hooks.example.com/hearth/people',
      status: 'Active',
      created_at: at,
      updated_at: at,
    })
    .execute();
  return encodeURIComponent(system.name);
}

/** Something on each admin configuration screen: a template, an action plan, a group, a flow. */
async function seedAdmin(server: TestServer, key: string): Promise<void> {
  const template = await server.post(key, '/v1/templates', {
    name: 'Welcome',
    subject: 'Welcome, %contact_first_name%',
    body: '<p>Hi %contact_first_name%</p>',
  });
  const plan = await server.post(key, '/v1/actionPlans', {
    name: 'New buyer',
    steps: [
      { delayDays: 0, kind: 'task', taskType: 'Call', taskName: 'Introduce yourself' },
      { delayDays: 2, kind: 'email', templateId: template.body.id },
    ],
  });
  const group = await server.post(key, '/v1/groups', { name: 'Buyer team', users: [] });
  await server.post(key, '/v1/leadFlows', {
    source: 'sunrise-realty.com',
    groupId: group.body.id,
    actionPlanId: plan.body.id,
  });
}

/** axe's findings, plus the layout's own promise: nothing wider than the screen, Sign out in view. */
async function check(page: Page, path: string, heading: string | RegExp): Promise<string[]> {
  await page.goto(path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  const found = (await seriousA11yViolations(page)).map((v) => `${path}: ${v}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const viewport = page.viewportSize()?.width ?? 0;
  if (width > viewport)
    found.push(`${path}: the page is ${width}px wide on a ${viewport}px screen`);
  if (!(await page.getByRole('button', { name: 'Sign out' }).isVisible()))
    found.push(`${path}: Sign out is not in view`);
  return found;
}

describe('accessibility (axe-core) of the main screens', () => {
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

  for (const [size, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    it(`has no serious or critical violations on a ${size}`, async () => {
      const account = await server.newAccount();
      const personId = await seed(server, account.owner.key, account.owner.id);
      const context = await newContext(browser, server, viewport);
      const page = await context.newPage();
      const found: string[] = [];
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      found.push(...(await seriousA11yViolations(page)).map((v) => `/login: ${v}`));
      await signInUser(page, server, account.owner);
      found.push(...(await check(page, '/people', 'People')));
      found.push(...(await check(page, `/people/${personId}`, 'Ada Access')));
      found.push(...(await check(page, '/people/create', 'New person')));
      found.push(...(await check(page, '/my-day', 'My day')));
      found.push(...(await check(page, '/deals', 'Deals')));
      found.push(...(await check(page, '/admin', 'Admin')));
      const system = await seedWebhook(server, account.accountId);
      found.push(...(await check(page, '/admin/systems', 'Systems')));
      found.push(...(await check(page, `/admin/webhooks?system=${system}`, 'Webhooks')));
      found.push(...(await check(page, '/admin/pipelines', 'Pipelines')));
      found.push(...(await check(page, '/admin/lead-flows', 'Lead flows and groups')));
      found.push(...(await check(page, '/admin/action-plans', 'Action plans')));
      found.push(...(await check(page, '/admin/templates', 'Email templates')));
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});
