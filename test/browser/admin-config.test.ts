import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { givePassword } from '../support/auth.js';
import { launchBrowser, newContext, PHONE, shot, signInAs } from './browser.js';

interface PipelineStage {
  id: number;
  name: string;
  orderWeight: number;
  closedStage: boolean;
}

/** The admin area's configuration screens: pipelines, lead flows and groups, action plans, templates. */
describe('admin configuration screens in the browser', () => {
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

  async function signedIn(role: 'Owner' | 'Admin' = 'Owner', viewport?: typeof PHONE) {
    const account = await server.newAccount();
    const user = role === 'Owner' ? account.owner : await account.addUser(role, 'Ada Admin');
    const { email, password } = await givePassword(server, user);
    const context = await newContext(browser, server, viewport);
    const page = await context.newPage();
    await signInAs(page, email, password);
    return { account, user, context, page };
  }

  /** Waits for the notification that says a write is done (or what the API refused). */
  const told = (page: Page, text: string | RegExp) => page.getByText(text).last().waitFor();

  it('pipelines: create with stages, add, drag into a new order, edit, delete', async () => {
    const { account, context, page } = await signedIn();
    const key = account.owner.key;
    await page.goto('/admin');
    await page.getByRole('link', { name: /Pipelines/ }).click();
    await page.getByRole('heading', { name: 'Pipelines', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'New pipeline' }).click();
    const dialog = page.getByRole('dialog', { name: 'New pipeline' });
    await dialog.getByLabel('Pipeline name').fill('Sellers');
    await dialog.getByLabel('Stage name').nth(0).fill('Listing signed');
    await dialog.getByLabel('Stage name').nth(1).fill('Showing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Pipeline Sellers added');
    const card = page.getByRole('region', { name: 'Sellers' });
    const stages = card.getByRole('list', { name: 'Stages of Sellers' });
    await stages.getByRole('listitem', { name: 'Showing' }).waitFor();

    await card.getByLabel('New stage in Sellers').fill('Offer');
    await card.getByRole('button', { name: 'Add stage' }).click();
    await stages.getByRole('listitem', { name: 'Offer' }).waitFor();

    await stages
      .getByRole('listitem', { name: 'Offer' })
      .dragTo(stages.getByRole('listitem', { name: 'Listing signed' }));
    await told(page, 'Offer moved');
    const pipelines = (await server.get(key, '/v1/pipelines')).body.pipelines as {
      id: number;
      name: string;
      stages: PipelineStage[];
    }[];
    const sellers = pipelines.find((p) => p.name === 'Sellers')!;
    const order = (list: PipelineStage[]) =>
      [...list].sort((a, b) => a.orderWeight - b.orderWeight).map((s) => s.name);
    assert.deepEqual(order(sellers.stages), ['Offer', 'Listing signed', 'Showing']);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[aria-label="Stages of Sellers"] li')]
          .map((li) => li.getAttribute('aria-label'))
          .join() === 'Offer,Listing signed,Showing',
    );

    // Move down from the keyboard, then edit a stage: closed, renamed.
    await stages.getByRole('button', { name: 'Move down: Offer' }).focus();
    await page.keyboard.press('Enter');
    await told(page, 'Offer moved');
    await stages.getByRole('button', { name: 'Edit stage Showing' }).click();
    const stageDialog = page.getByRole('dialog', { name: 'Edit stage Showing' });
    await stageDialog.getByLabel('Stage name').fill('Sold');
    await stageDialog.getByLabel(/Closed stage/).check();
    await stageDialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Stage Sold saved');
    let after = (await server.get(key, `/v1/pipelines/${sellers.id}`)).body;
    assert.deepEqual(order(after.stages), ['Listing signed', 'Offer', 'Sold']);
    assert.equal(after.stages.find((s: PipelineStage) => s.name === 'Sold').closedStage, true);

    // A stage with a live deal is kept, and the API's reason is shown.
    const offer = after.stages.find((s: PipelineStage) => s.name === 'Offer');
    const person = await server.post(key, '/v1/people', { firstName: 'Dora', lastName: 'Deal' });
    await server.post(key, '/v1/deals', {
      name: 'Dora sells',
      pipelineId: sellers.id,
      stageId: offer.id,
      peopleIds: [person.body.id],
    });
    await stages.getByRole('button', { name: 'Delete stage Offer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, /Stage 'Offer' still has 1 deal/);
    await stages.getByRole('button', { name: 'Delete stage Listing signed' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Listing signed deleted');
    after = (await server.get(key, `/v1/pipelines/${sellers.id}`)).body;
    assert.deepEqual(order(after.stages), ['Offer', 'Sold']);

    await page.getByRole('button', { name: 'Edit pipeline Sellers' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit pipeline Sellers' });
    await edit.getByLabel('Pipeline name').fill('Listings');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Listings', level: 2 }).waitFor();
    await shot(page, 'hearth-admin-pipelines-laptop', { fullPage: true });

    await page.getByRole('button', { name: 'Delete pipeline Listings' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, /Pipeline 'Listings' still has 1 deal/);
    await context.close();
  });

  it('email templates: create with a merge field, edit, preview for a person, delete', async () => {
    const { account, context, page } = await signedIn();
    const key = account.owner.key;
    await server.post(key, '/v1/people', {
      firstName: 'Priya',
      lastName: 'Shah',
      emails: [{ value: 'priya@example.com' }],
    });
    await page.goto('/admin');
    await page.getByRole('link', { name: /Email templates/ }).click();
    await page.getByRole('heading', { name: 'Email templates', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New email template' });
    await dialog.getByLabel('Template name').fill('Welcome');
    await dialog.getByLabel('Subject').fill('Welcome, ');
    // The caret is at the end of the subject: the picked field goes there.
    await dialog.getByLabel('Subject').press('End');
    await dialog.getByRole('combobox', { name: 'Insert merge field' }).click();
    await page.getByRole('option', { name: /Contact: first name/ }).click();
    assert.equal(await dialog.getByLabel('Subject').inputValue(), 'Welcome, %contact_first_name%');
    await dialog.getByLabel(/^Body/).fill('Hi %contact_name%, I am %agent_name%.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Template Welcome saved');
    await page.getByRole('button', { name: 'Edit template Welcome' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit template Welcome' });
    await edit.getByLabel('Template name').fill('Welcome note');
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Template Welcome note saved');
    const templates = (await server.get(key, '/v1/templates')).body.templates;
    assert.equal(templates.length, 1);
    assert.equal(templates[0].name, 'Welcome note');
    assert.equal(templates[0].subject, 'Welcome, %contact_first_name%');

    await page.getByRole('button', { name: 'Preview Welcome note' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview Welcome note' });
    await preview.getByRole('combobox', { name: 'Person' }).fill('Priy');
    await page.getByRole('option', { name: /Priya Shah/ }).click();
    const merged = preview.getByRole('region', { name: 'Merged for Priya Shah' });
    await merged.getByText('Welcome, Priya').waitFor();
    await merged.getByText(`Hi Priya Shah, I am ${account.owner.name}.`).waitFor();
    await shot(page, 'hearth-admin-templates-preview');
    await preview.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Delete template Welcome note' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Welcome note deleted');
    assert.equal((await server.get(key, '/v1/templates')).body.templates.length, 0);
    await context.close();
  });

  it('email templates on a phone: the subject gets the width, a merge field wraps whole', async () => {
    const { account, context, page } = await signedIn('Owner', PHONE);
    await server.post(account.owner.key, '/v1/templates', {
      name: 'Welcome a new lead',
      subject: 'Welcome, %contact_first_name%',
      body: 'Hi %contact_first_name%',
      isShared: true,
    });
    await page.goto('/admin/templates');
    const subject = page.getByText('Welcome, %contact_first_name%');
    await subject.waitFor();
    // The Shared column gives its width to the subject; the chip sits under it.
    assert.equal(await page.getByRole('columnheader', { name: 'Shared' }).count(), 0);
    await page
      .getByRole('row', { name: /Welcome a new lead/ })
      .getByText('Team')
      .waitFor();
    const lines = await subject.evaluate((element) => {
      const text = element.firstChild!;
      const range = document.createRange();
      const start = text.textContent!.indexOf('%');
      range.setStart(text, start);
      range.setEnd(text, text.textContent!.length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    assert.equal(lines, 1, 'the merge field is not broken across lines');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await shot(page, 'admin-templates-phone');
    await context.close();
  });

  it('action plans: create with task and email steps, reorder a step, edit, delete', async () => {
    const { account, context, page } = await signedIn();
    const key = account.owner.key;
    const template = await server.post(key, '/v1/templates', {
      name: 'Check-in',
      subject: 'Hi %contact_first_name%',
      body: 'How is the search going?',
    });
    await page.goto('/admin/action-plans');
    await page.getByRole('heading', { name: 'Action plans', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New action plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'New action plan' });
    await dialog.getByLabel('Plan name').fill('New buyer');
    await dialog
      .getByRole('textbox', { name: 'Task', exact: true })
      .fill('Call to introduce yourself');
    await dialog.getByRole('button', { name: 'Add step' }).click();
    await dialog
      .getByLabel(/Days after start/)
      .nth(1)
      .fill('3');
    await dialog.getByRole('combobox', { name: 'Step' }).nth(1).click();
    await page.getByRole('option', { name: 'Email from a template' }).click();
    await dialog.getByRole('combobox', { name: 'Email template' }).click();
    await page.getByRole('option', { name: 'Check-in' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Action plan New buyer saved');
    let plans = (await server.get(key, '/v1/actionPlans')).body.actionPlans;
    assert.equal(plans.length, 1);
    assert.deepEqual(
      plans[0].steps.map((s: { kind: string; delayDays: number }) => [s.kind, s.delayDays]),
      [
        ['task', 0],
        ['email', 3],
      ],
    );
    assert.equal(plans[0].steps[1].templateId, template.body.id);
    const row = page.getByRole('row', { name: /New buyer/ });
    await row.getByText('Day 3: email “Check-in”').waitFor();

    // Edit: the email step moves first, and the task is renamed.
    await page.getByRole('button', { name: 'Edit action plan New buyer' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit action plan New buyer' });
    await edit.getByRole('textbox', { name: 'Task', exact: true }).fill('Call about the search');
    await edit
      .getByRole('button', { name: /Move up/i })
      .nth(1)
      .click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Action plan New buyer saved');
    plans = (await server.get(key, '/v1/actionPlans')).body.actionPlans;
    assert.deepEqual(
      plans[0].steps.map((s: { kind: string; taskName: string | null }) => [s.kind, s.taskName]),
      [
        ['email', null],
        ['task', 'Call about the search'],
      ],
    );
    await shot(page, 'hearth-admin-action-plans', { fullPage: true });

    await page.getByRole('button', { name: 'Delete action plan New buyer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'New buyer deleted');
    assert.equal((await server.get(key, '/v1/actionPlans')).body.actionPlans.length, 0);
    await context.close();
  });

  it('lead flows and groups: a first-to-claim group, a flow sending to it, edit, delete', async () => {
    const { account, context, page } = await signedIn();
    const key = account.owner.key;
    const agent = await account.addUser('Agent', 'Alma Agent');
    const second = await account.addUser('Agent', 'Bo Agent');
    await page.goto('/admin');
    await page.getByRole('link', { name: /Lead flows and groups/ }).click();
    await page.getByRole('heading', { name: 'Lead flows and groups', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group' });
    await dialog.getByLabel('Group name').fill('Buyer team');
    await dialog.getByRole('combobox', { name: 'Distribution' }).click();
    await page.getByRole('option', { name: /First to claim/ }).click();
    await dialog.getByLabel('Claim window (minutes)').fill('10');
    const members = dialog.getByRole('combobox', { name: 'Members, in rotation order' });
    await members.fill('Alma');
    await page.getByRole('option', { name: 'Alma Agent' }).click();
    await members.fill('Bo');
    await page.getByRole('option', { name: 'Bo Agent' }).click();
    await dialog.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: 'Bo Agent' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Group Buyer team saved');
    const groups = (await server.get(key, '/v1/groups')).body.groups;
    assert.equal(groups.length, 1);
    assert.equal(groups[0].distribution, 'first-to-claim');
    assert.equal(groups[0].claimWindow, 600);
    assert.deepEqual(
      groups[0].users.map((u: { id: number }) => u.id),
      [agent.id, second.id],
    );
    assert.equal(groups[0].defaultUserId, second.id);
    await page
      .getByRole('row', { name: /Buyer team/ })
      .getByText('10 min window')
      .waitFor();

    await page.getByRole('button', { name: 'New lead flow' }).click();
    const flowDialog = page.getByRole('dialog', { name: 'New lead flow' });
    await flowDialog.getByLabel('Lead source').fill('sunrise-realty.com');
    await flowDialog.getByRole('radio', { name: 'A group' }).check();
    await flowDialog.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Buyer team' }).click();
    await flowDialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Lead flow sunrise-realty.com saved');
    await page
      .getByRole('row', { name: /sunrise-realty\.com/ })
      .getByText('Group Buyer team')
      .waitFor();
    let flows = (await server.get(key, '/v1/leadFlows')).body.leadFlows;
    assert.equal(flows[0].groupId, groups[0].id);
    assert.equal(flows[0].assignedUserId, null);

    // A second flow for the same source is refused with the API's reason.
    await page.getByRole('button', { name: 'New lead flow' }).click();
    await page
      .getByRole('dialog', { name: 'New lead flow' })
      .getByLabel('Lead source')
      .fill('Sunrise-Realty.com');
    await page
      .getByRole('dialog', { name: 'New lead flow' })
      .getByRole('button', { name: 'Save' })
      .click();
    await told(page, /already exists/);
    await page
      .getByRole('dialog', { name: 'New lead flow' })
      .getByRole('button', { name: 'Cancel' })
      .click();

    await page.getByRole('button', { name: 'Edit lead flow sunrise-realty.com' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit lead flow sunrise-realty.com' });
    await edit.getByRole('radio', { name: 'A user' }).check();
    await edit.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: 'Alma Agent' }).click();
    await edit.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: /Archived/ }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Lead flow sunrise-realty.com saved');
    flows = (await server.get(key, '/v1/leadFlows')).body.leadFlows;
    assert.equal(flows[0].assignedUserId, agent.id);
    assert.equal(flows[0].groupId, null);
    assert.equal(flows[0].status, 'Archived');
    await shot(page, 'hearth-admin-lead-flows', { fullPage: true });

    await page.getByRole('button', { name: 'Delete lead flow sunrise-realty.com' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'sunrise-realty.com deleted');
    await page.getByRole('button', { name: 'Delete group Buyer team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Buyer team deleted');
    assert.equal((await server.get(key, '/v1/leadFlows')).body.leadFlows.length, 0);
    assert.equal((await server.get(key, '/v1/groups')).body.groups.length, 0);
    await context.close();
  });

  it('pipelines: an Admin does not see the screen in the menu and gets no controls', async () => {
    const { account, context, page } = await signedIn('Admin');
    await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Qualified' }],
    });
    await page.goto('/admin');
    await page.getByRole('link', { name: /Stages/ }).waitFor();
    assert.equal(await page.getByRole('link', { name: /Pipelines/ }).count(), 0);
    await page.goto('/admin/pipelines');
    await page.getByRole('list', { name: 'Stages of Buyers' }).waitFor();
    await page
      .getByText('Only the account’s Owner changes pipelines.')
      .or(page.getByText("Only the account's Owner changes pipelines."))
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'New pipeline' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /Move down/ }).count(), 0);
    await context.close();
  });
});
