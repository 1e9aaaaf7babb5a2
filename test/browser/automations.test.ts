import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { givePassword } from '../support/auth.js';
import {
  LAPTOP,
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  shot,
  signInAs,
} from './browser.js';

/** Issue 33: the automations builder (Owner/Admin) and a person's runs on their page. */
describe('automations in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ worker: true });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(role: 'Owner' | 'Admin', viewport = LAPTOP) {
    const account = await server.newAccount();
    const user = role === 'Owner' ? account.owner : await account.addUser(role, 'Ada Admin');
    const { email, password } = await givePassword(server, user);
    const context = await newContext(browser, server, viewport);
    const page = await context.newPage();
    await signInAs(page, email, password);
    return { account, context, page };
  }
  const told = (page: Page, text: string | RegExp) => page.getByText(text).last().waitFor();
  const choose = async (
    page: Page,
    scope: ReturnType<Page['getByRole']>,
    label: string,
    option: string,
    nth = 0,
  ) => {
    await scope.getByRole('combobox', { name: label }).nth(nth).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('builds trigger → conditions → steps with forms, pauses, resumes, edits and deletes', async () => {
    const { account, context, page } = await signedIn('Admin');
    const key = account.owner.key;
    const system = await server.newSystem();
    const sys = { 'X-System': system.name, 'X-System-Key': system.key };
    const template = await server.post(key, '/v1/templates', {
      name: 'Welcome',
      subject: 'Hello',
      body: 'Glad you wrote.',
    });
    assert.equal(template.status, 201, template.text);
    await page.goto('/admin');
    await page.getByRole('link', { name: /Automations/ }).click();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByText('No automations yet.').waitFor();

    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Give the automation a name').waitFor();
    await dialog.getByText('Name the tag').waitFor();
    await dialog.getByText('Say what the task is').waitFor();

    await dialog.getByLabel('Automation name').fill('Hot leads');
    await dialog.getByRole('textbox', { name: 'Tag', exact: true }).fill('hot');
    await dialog.getByLabel('The source is').fill('Zillow');
    await dialog.getByRole('textbox', { name: 'Task', exact: true }).fill('Call now');
    await dialog.getByRole('button', { name: 'Add step' }).click();
    await choose(page, dialog, 'Step', 'Wait', 1);
    await dialog.getByLabel('For').fill('1');
    await choose(page, dialog, 'Unit', 'days');
    await dialog.getByRole('button', { name: 'Add step' }).click();
    await choose(page, dialog, 'Step', 'Send an email template', 2);
    await choose(page, dialog, 'Email template', 'Welcome');
    const preview = dialog.getByRole('status', { name: 'What it does' });
    await preview
      .getByText(
        'When the tag “hot” is added, and the source is Zillow: create a task “Call now”, then wait 1 day, then send the template “Welcome”.',
      )
      .waitFor();
    await shot(page, 'automations-builder-laptop');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Automation Hot leads saved');

    const saved = (await server.get(key, '/v1/automations', sys)).body.automations;
    assert.equal(saved.length, 1);
    assert.deepEqual(saved[0].trigger, {
      type: 'tagAdded',
      tag: 'hot',
      conditions: { source: 'Zillow' },
    });
    assert.deepEqual(saved[0].actions, [
      { type: 'createTask', name: 'Call now' },
      { type: 'wait', seconds: 86_400 },
      { type: 'sendEmail', templateId: template.body.id },
    ]);
    const row = page.getByRole('row', { name: /Hot leads/ });
    await row.getByText(/When the tag “hot” is added/).waitFor();
    await shot(page, 'automations-list-laptop', { fullPage: true });

    await page.getByRole('button', { name: 'Pause automation Hot leads' }).click();
    await told(page, 'Hot leads paused');
    assert.equal(
      (await server.get(key, `/v1/automations/${saved[0].id}`, sys)).body.status,
      'Inactive',
    );
    await page.getByRole('button', { name: 'Resume automation Hot leads' }).click();
    await told(page, 'Hot leads resumed');
    assert.equal(
      (await server.get(key, `/v1/automations/${saved[0].id}`, sys)).body.status,
      'Active',
    );

    // The API's refusal, in words: a webhook to a private address.
    await page.getByRole('button', { name: 'Edit automation Hot leads' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit automation Hot leads' });
    await edit.getByLabel('For').waitFor();
    assert.equal(await edit.getByLabel('For').inputValue(), '1');
    await edit.getByRole('button', { name: 'Add step' }).click();
    await choose(page, edit, 'Step', 'Call a webhook', 3);
    await edit.getByLabel('Webhook URL (https)').fill('https://127.0.0.1/hook');
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, /Field 'url' is not allowed/);
    await edit.getByRole('button', { name: 'Remove' }).nth(3).click();
    await edit.getByLabel('Automation name').fill('Hot leads now');
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Automation Hot leads now saved');
    const edited = (await server.get(key, `/v1/automations/${saved[0].id}`, sys)).body;
    assert.equal(edited.name, 'Hot leads now');
    assert.equal(edited.actions.length, 3);

    await page.getByRole('button', { name: 'Delete automation Hot leads now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Hot leads now deleted');
    assert.equal((await server.get(key, '/v1/automations', sys)).body.automations.length, 0);
    await context.close();
  });

  it('the builder at phone width', async () => {
    const { context, page } = await signedIn('Owner', PHONE);
    await page.goto('/admin/automations');
    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByLabel('Automation name').fill('No contact');
    await choose(page, dialog, 'Trigger', 'No contact for some days');
    await dialog.getByLabel('Days without contact').fill('30');
    await dialog.getByRole('textbox', { name: 'Task', exact: true }).fill('Check in');
    await dialog
      .getByRole('status', { name: 'What it does' })
      .getByText('When nobody has been in touch for 30 days: create a task “Check in”.')
      .waitFor();
    await shot(page, 'automations-builder-phone');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Automation No contact saved');
    await page.getByRole('row', { name: /No contact/ }).waitFor();
    await shot(page, 'automations-list-phone', { fullPage: true });
    await context.close();
  });

  it("a person's page shows their runs: the current step, pause, resume and cancel", async () => {
    const { account, context, page } = await signedIn('Owner');
    const key = account.owner.key;
    const system = await server.newSystem();
    const sys = { 'X-System': system.name, 'X-System-Key': system.key };
    const automation = await server.post(
      key,
      '/v1/automations',
      {
        name: 'Nurture',
        trigger: { type: 'tagAdded', tag: 'nurture-never' },
        actions: [
          { type: 'addTag', tag: 'nurtured' },
          { type: 'wait', seconds: 3600 },
          { type: 'createTask', name: 'Call back' },
        ],
      },
      sys,
    );
    assert.equal(automation.status, 201, automation.text);
    const person = await server.newPerson(key, { firstName: 'Rita', lastName: 'Runs' });
    const started = await server.post(
      key,
      '/v1/automationsPeople',
      { automationId: automation.body.id, personId: person.id },
      sys,
    );
    assert.equal(started.status, 201, started.text);
    const runOf = async () =>
      (await server.get(key, `/v1/automationsPeople/${started.body.id}`, sys)).body;

    // The worker takes the first step and starts the wait before the page is opened.
    for (let tries = 0; (await runOf()).stepsCompleted < 2; tries++) {
      assert.ok(tries < 150, 'the run reached its wait');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.goto(`/people/${person.id}`);
    const section = page.getByRole('region', { name: 'Automations' });
    const run = section.getByRole('listitem', { name: 'Automation Nurture' });
    await run
      .getByText(/^Waiting until .+, then step 3 of 3: create a task “Call back”$/)
      .waitFor();
    await run.getByText('Running').waitFor();
    await shot(page, 'automations-person-runs-laptop', { fullPage: true });
    assert.deepEqual(await seriousA11yViolations(page), []);

    await run.getByRole('button', { name: 'Pause Nurture' }).click();
    await told(page, 'Nurture paused');
    assert.equal((await runOf()).status, 'Paused');
    await run.getByRole('button', { name: 'Resume Nurture' }).click();
    await told(page, 'Nurture resumed');
    assert.equal((await runOf()).status, 'Running');
    await run.getByRole('button', { name: 'Cancel Nurture' }).click();
    await told(page, 'Nurture cancelled');
    await run.getByText('Stopped after 2 steps').waitFor();
    assert.equal((await runOf()).status, 'Cancelled');
    assert.equal(await run.getByRole('button').count(), 0, 'a cancelled run has nothing to do');

    const phone = await newContext(browser, server, PHONE);
    const phonePage = await phone.newPage();
    const { email, password } = await givePassword(server, account.owner);
    await signInAs(phonePage, email, password);
    await phonePage.goto(`/people/${person.id}`);
    const phoneRun = phonePage
      .getByRole('region', { name: 'Automations' })
      .getByRole('listitem', { name: 'Automation Nurture' });
    await phoneRun.getByText('Cancelled').waitFor();
    await phoneRun.scrollIntoViewIfNeeded();
    await shot(phonePage, 'automations-person-runs-phone');
    await phone.close();
    await context.close();
  });
});
