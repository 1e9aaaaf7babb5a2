import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import { LAPTOP, launchBrowser, PHONE, shot, signedInPage } from './browser.js';

/** The timeline section of the person page. */
const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });

async function openTab(page: Page, name: string) {
  await page.getByRole('region', { name: 'Quick actions' }).getByRole('tab', { name }).click();
}

describe('person page in the browser: quick actions and editing every kind of field', () => {
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

  it('logs a call, adds a task, schedules an appointment and starts an action plan; all stay after reload', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const person = await server.post(key, '/v1/people', {
      firstName: 'Quinn',
      lastName: unique('Quick'),
      phones: [{ value: '555-010-3000' }],
    });
    const id = person.body.id as number;
    const planName = unique('Buyer nurture');
    const plan = await server.post(key, '/v1/actionPlans', { name: planName, status: 'Active' });
    assert.equal(plan.status, 201, plan.text);

    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto(`/people/${id}`);
    await page.getByRole('heading', { name: person.body.name, level: 1 }).waitFor();

    const callNote = unique('Asked about schools');
    await openTab(page, 'Call');
    await page.getByLabel('Minutes').fill('3');
    await page.getByLabel('Call note').fill(callNote);
    await page.getByRole('button', { name: 'Log call' }).click();
    await timeline(page).getByText(callNote).waitFor();
    await timeline(page)
      .getByRole('heading', { name: /Outgoing call.*Interested/ })
      .waitFor();

    const taskName = unique('Send school list');
    await openTab(page, 'Task');
    await page.getByRole('textbox', { name: 'Task' }).fill(taskName);
    await page.getByRole('button', { name: 'Add task' }).click();
    await timeline(page).getByRole('checkbox', { name: taskName }).waitFor();

    const title = unique('Viewing');
    await openTab(page, 'Appointment');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Location').fill('12 Elm St');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await timeline(page)
      .getByRole('heading', { name: new RegExp(title) })
      .waitFor();

    await openTab(page, 'Action plan');
    await page.getByRole('combobox', { name: 'Action plan' }).click();
    await page.getByRole('option', { name: planName }).click();
    await page.getByRole('button', { name: 'Start plan' }).click();
    await timeline(page)
      .getByRole('heading', { name: new RegExp(planName) })
      .waitFor();

    await page.reload();
    for (const text of [callNote, title, planName])
      await timeline(page).getByText(text, { exact: false }).first().waitFor();
    await timeline(page).getByRole('checkbox', { name: taskName }).waitFor();

    const calls = await server.get(key, `/v1/calls?personId=${id}`);
    assert.equal(calls.body.calls[0].note, callNote);
    assert.equal(calls.body.calls[0].duration, 180);
    const tasks = await server.get(key, `/v1/tasks?personId=${id}`);
    assert.equal(tasks.body.tasks[0].name, taskName);
    const appointments = await server.get(key, `/v1/appointments?personId=${id}`);
    assert.equal(appointments.body.appointments[0].title, title);
    assert.equal(appointments.body.appointments[0].location, '12 Elm St');
    const plans = await server.get(key, `/v1/actionPlansPeople?personId=${id}`);
    assert.equal(plans.body.actionPlansPeople[0].actionPlanId, plan.body.id);
    await context.close();
  });

  it('an Agent logs a text from a shared text template, merged for the person', async () => {
    const account = await server.newAccount();
    const shared = await server.post(account.owner.key, '/v1/textMessageTemplates', {
      name: unique('Showing reminder'),
      message: 'Hi %contact_first_name%, see you at the showing tomorrow.',
      isShared: true,
    });
    assert.equal(shared.status, 201, shared.text);
    const agent = await account.addUser('Agent', 'Tess Agent');
    const person = await server.post(agent.key, '/v1/people', {
      firstName: 'Rowan',
      lastName: unique('Text'),
      phones: [{ value: '555-010-5000' }],
    });
    const id = person.body.id as number;

    for (const [size, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      const { context, page } = await signedInPage(browser, server, agent, viewport);
      await page.goto(`/people/${id}`);
      await page.getByRole('heading', { name: person.body.name, level: 1 }).waitFor();
      await openTab(page, 'Text');
      await page.getByRole('combobox', { name: 'Template' }).click();
      await page.getByRole('option', { name: shared.body.name }).click();
      const message = page.getByRole('textbox', { name: 'Message' });
      await page.waitForFunction(
        () =>
          (document.querySelector('textarea[name="message"]') as HTMLTextAreaElement | null)
            ?.value !== '',
      );
      assert.equal(await message.inputValue(), 'Hi Rowan, see you at the showing tomorrow.');
      await shot(page, `person-text-${size}`);
      if (size === 'phone') {
        await context.close();
        break;
      }
      await message.fill('Hi Rowan, see you at the showing tomorrow at 10.');
      await page.getByRole('button', { name: 'Log text' }).click();
      await timeline(page)
        .getByRole('heading', { name: /Text sent/ })
        .waitFor();
      await timeline(page).getByText('see you at the showing tomorrow at 10.').waitFor();
      // The form is ready for the next text.
      assert.equal(await message.inputValue(), '');
      await context.close();
    }
    const texts = await server.get(agent.key, `/v1/textMessages?personId=${id}`);
    assert.equal(texts.status, 200, texts.text);
    assert.equal(texts.body.textmessages.length, 1);
    assert.equal(
      texts.body.textmessages[0].message,
      'Hi Rowan, see you at the showing tomorrow at 10.',
    );
    assert.equal(texts.body.textmessages[0].toNumber, '555-010-5000');
    assert.equal(texts.body.textmessages[0].isIncoming, false);
  });

  it('edits emails, phones, addresses and a custom field; the changes persist after reload', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const field = await server.post(key, '/v1/customFields', {
      label: 'Favourite colour',
      type: 'text',
    });
    assert.equal(field.status, 201, field.text);
    const person = await server.post(key, '/v1/people', {
      firstName: 'Edie',
      lastName: unique('Edit'),
      emails: [{ value: 'edie@example.com' }],
      phones: [{ value: '555-010-4000' }],
    });
    const id = person.body.id as number;

    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto(`/people/${id}`);
    await page.getByRole('heading', { name: person.body.name, level: 1 }).waitFor();

    // Each field is saved in place when it is left or on Enter.
    const announced = (what: string) =>
      page.getByRole('status').getByText(`${what} saved`).waitFor();
    await page.getByLabel('Email address').first().fill('edie.new@example.com');
    await page.getByLabel('Email address').first().press('Enter');
    await announced('Email address');
    await page.getByLabel('Phone number').first().fill('555-010-4999');
    await page.getByLabel('Phone number').first().press('Enter');
    await announced('Phone number');
    await page
      .getByRole('group', { name: 'Addresses' })
      .getByRole('button', { name: 'Add', exact: true })
      .click();
    await page.getByLabel('Street').fill('9 Harbour Rd');
    await page.getByLabel('Street').press('Enter');
    await announced('Street');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('City').press('Enter');
    await announced('City');
    await page.getByLabel('Favourite colour').fill('Teal');
    await page.getByLabel('Favourite colour').press('Enter');
    await announced('Favourite colour');

    await page.reload();
    await page.getByRole('heading', { name: person.body.name, level: 1 }).waitFor();
    assert.equal(
      await page.getByLabel('Email address').first().inputValue(),
      'edie.new@example.com',
    );
    assert.equal(await page.getByLabel('Phone number').first().inputValue(), '555-010-4999');
    assert.equal(await page.getByLabel('Street').inputValue(), '9 Harbour Rd');
    assert.equal(await page.getByLabel('Favourite colour').inputValue(), 'Teal');

    const saved = await server.get(key, `/v1/people/${id}?fields=allFields`);
    assert.deepEqual(
      saved.body.emails.map((e: { value: string }) => e.value),
      ['edie.new@example.com'],
    );
    assert.deepEqual(
      saved.body.phones.map((p: { value: string }) => p.value),
      ['555-010-4999'],
    );
    assert.equal(saved.body.addresses[0].street, '9 Harbour Rd');
    assert.equal(saved.body.addresses[0].city, 'Portland');
    assert.equal(saved.body[field.body.name], 'Teal');
    await context.close();
  });
});
