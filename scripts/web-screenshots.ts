// Screenshots of the web app for the README walk-through (docs/screenshots/), at laptop
// (1280x800) and phone (390x844) size, on a throwaway server with a small realistic team.
//   node --import tsx scripts/web-screenshots.ts
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startServer } from '../test/support/server.js';
import { givePassword } from '../test/support/auth.js';
import { LAPTOP, PHONE, launchBrowser, newContext, signInAs } from '../test/browser/browser.js';

const OUT = 'docs/screenshots';
const LEADS = [
  ['Jane', 'Doe', '12 Elm St', 'Is this still available? We would love a showing this weekend.'],
  ['Marcus', 'Lee', '48 Oak Ave', 'Pre-approved, looking to move by spring.'],
  ['Priya', 'Shah', '7 Harbor View', 'Can we see it Tuesday evening?'],
  ['Tom', 'Becker', '230 Main St #4', 'What are the HOA fees?'],
  ['Ana', 'Gomez', '19 Birch Ln', 'Thinking of selling ours too.'],
  ['Wei', 'Chen', '5 Cedar Ct', 'Is the basement finished?'],
];

const server = await startServer({ worker: true });
const account = await server.newAccount('Sunrise Realty');
const key = account.owner.key;
const system = await server.newSystem('Website');
const headers = { 'x-system': system.name, 'x-system-key': system.key };
const ids: number[] = [];
for (const [i, [firstName, lastName, street, message]] of LEADS.entries()) {
  const lead = await server.post(
    key,
    '/v1/events',
    {
      source: 'sunrise-realty.com',
      system: system.name,
      type: 'Property Inquiry',
      message,
      person: {
        firstName,
        lastName,
        emails: [{ value: `${firstName.toLowerCase()}@example.com` }],
        phones: [{ value: `555-010-20${10 + i}` }],
        tags: i % 2 ? ['buyer', 'pre-approved'] : ['buyer'],
      },
      property: {
        street,
        city: 'Springfield',
        state: 'IL',
        code: '62701',
        price: 325000 + i * 15000,
      },
    },
    headers,
  );
  ids.push(lead.body.id);
}
const jane = ids[0];
const note = await server.post(key, '/v1/notes', {
  personId: jane,
  body: 'Called back: prefers mornings, pre-approved up to $400k, needs 3 bedrooms near the school.',
});
await server.post(key, `/v1/reactions/Note/${note.body.id}`, { body: '👍' });
await server.post(key, '/v1/threadedReplies', {
  refType: 'Note',
  refId: note.body.id,
  body: 'I will send her the two listings on Birch Ln tonight.',
});
await server.post(key, '/v1/calls', {
  personId: jane,
  phone: '555-010-2010',
  outcome: 'Interested',
  duration: 320,
  note: 'Booked a showing for Saturday.',
});
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const me = account.owner.id;
await server.post(key, '/v1/tasks', {
  personId: jane,
  name: 'Send listings',
  type: 'Email',
  dueDate: today,
  assignedUserId: me,
});
await server.post(key, '/v1/tasks', {
  personId: ids[1],
  name: 'Ask for the pre-approval letter',
  type: 'Call',
  dueDate: '2026-01-05',
  assignedUserId: me,
});
await server.post(key, '/v1/tasks', {
  personId: ids[2],
  name: 'Confirm Tuesday showing',
  type: 'Text',
  dueDate: tomorrow,
  assignedUserId: me,
});
const start = new Date(Date.now() + 86_400_000);
start.setUTCHours(15, 0, 0, 0);
await server.post(key, '/v1/appointments', {
  title: 'Showing at 12 Elm St',
  start: start.toISOString(),
  end: new Date(start.getTime() + 3_600_000).toISOString(),
  location: '12 Elm St',
  invitees: [{ personId: jane }, { userId: me }],
});
await server.post(key, '/v1/pipelines', {
  name: 'Buyers',
  stages: [
    { name: 'Qualified' },
    { name: 'Showing' },
    { name: 'Offer' },
    { name: 'Under contract' },
  ],
});
// The deals go on the account's first pipeline: the board opens on it.
const [sales] = (await server.get(key, '/v1/pipelines')).body.pipelines;
for (const [i, personId] of ids.slice(0, 5).entries()) {
  await server.post(key, '/v1/deals', {
    name: `${LEADS[i][2]} purchase`,
    pipelineId: sales.id,
    stageId: sales.stages[i % 4].id,
    price: 325000 + i * 15000,
    peopleIds: [personId],
  });
}

// The admin configuration screens: a template, an action plan, a group sharing leads, a flow.
const welcome = await server.post(key, '/v1/templates', {
  name: 'Welcome a new lead',
  subject: 'Welcome, %contact_first_name%',
  body: '<p>Hi %contact_first_name%,</p><p>Thanks for asking about %inquiry_address%.</p><p>%agent_name%</p>',
  isShared: true,
});
const plan = await server.post(key, '/v1/actionPlans', {
  name: 'New buyer lead',
  description: 'First two weeks',
  steps: [
    { delayDays: 0, kind: 'task', taskType: 'Call', taskName: 'Call to introduce yourself' },
    { delayDays: 1, kind: 'email', templateId: welcome.body.id },
    { delayDays: 7, kind: 'task', taskType: 'Follow Up', taskName: 'Send new listings' },
  ],
});
const alma = await account.addUser('Agent', 'Alma Reyes');
const bo = await account.addUser('Agent', 'Bo Lindqvist');
const team = await server.post(key, '/v1/groups', {
  name: 'Buyer team',
  distribution: 'first-to-claim',
  claimWindow: 300,
  users: [alma.id, bo.id],
  defaultUserId: me,
});
await server.post(key, '/v1/groups', { name: 'Listing team', users: [bo.id, alma.id] });
await server.post(key, '/v1/leadFlows', {
  source: 'sunrise-realty.com',
  groupId: team.body.id,
  actionPlanId: plan.body.id,
});
await server.post(key, '/v1/leadFlows', { source: 'zillow.com', assignedUserId: alma.id });

const { email, password } = await givePassword(server, account.owner);
const browser = await launchBrowser();
mkdirSync(OUT, { recursive: true });

async function shot(page: Page, name: string, path: string, heading: string) {
  await page.goto(path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${OUT}/${name}.png` });
}

for (const [size, viewport] of [
  ['laptop', LAPTOP],
  ['phone', PHONE],
] as const) {
  const context = await newContext(browser, server, viewport);
  const page = await context.newPage();
  if (size === 'laptop') {
    await page.goto('/set-password?token=from-the-printed-link');
    await page.getByRole('button', { name: 'Save password' }).waitFor();
    await page.screenshot({ path: `${OUT}/set-password-${size}.png` });
  }
  await signInAs(page, email, password);
  await shot(page, `people-${size}`, '/people', 'People');
  // The top bar's search: Ctrl+K, results as you type.
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search people, deals and tasks' }).fill('ma');
  await page.getByRole('option', { name: /Marcus Lee/ }).waitFor();
  await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
  await page.screenshot({ path: `${OUT}/search-${size}.png` });
  await page.keyboard.press('Escape');
  await shot(page, `person-${size}`, `/people/${jane}`, 'Jane Doe');
  await shot(page, `my-day-${size}`, '/my-day', 'My day');
  await shot(page, `deals-${size}`, '/deals', 'Deals');
  await shot(page, `admin-pipelines-${size}`, '/admin/pipelines', 'Pipelines');
  await shot(page, `admin-lead-flows-${size}`, '/admin/lead-flows', 'Lead flows and groups');
  await shot(page, `admin-action-plans-${size}`, '/admin/action-plans', 'Action plans');
  await shot(page, `admin-templates-${size}`, '/admin/templates', 'Email templates');
  await page.getByRole('button', { name: 'Preview Welcome a new lead' }).click();
  await page.getByRole('combobox', { name: 'Person' }).fill('Jane');
  await page.getByRole('option', { name: /Jane Doe/ }).click();
  await page.getByText('Welcome, Jane').waitFor();
  await page.screenshot({ path: `${OUT}/admin-template-preview-${size}.png` });
  await context.close();
}
await browser.close();
await server.close();
console.log(`screenshots in ${OUT}/`);
