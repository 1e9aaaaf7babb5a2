import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, shot, signedInPage } from './browser.js';

interface TextTemplate {
  id: number;
  name: string;
  message: string;
  isShared: boolean;
}

/** Admin → Text message templates: merge fields, a preview for a person (Agents: admin-smart-lists). */
describe('text message templates in the browser', () => {
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

  it('a failed read offers Retry; create with a merge field, preview, edit, delete (laptop)', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    assert.equal((await server.put(key, '/v1/me', { name: 'Olivia Grant' })).status, 200);
    await server.newPerson(key, { firstName: 'Priya', lastName: 'Shah' });
    const { context, page } = await signedInPage(browser, server, account.owner);
    let failing = true;
    await page.route('**/v1/textMessageTemplates?*', (route) =>
      failing
        ? route.fulfill({ status: 503, json: { errorMessage: 'Try again soon' } })
        : route.continue(),
    );
    await page.goto('/admin');
    await page.getByRole('link', { name: /Text message templates/ }).click();
    await page.getByRole('heading', { name: 'Text message templates', level: 1 }).waitFor();
    const failure = page.getByRole('alert').filter({ hasText: 'Could not load' });
    await failure.getByText('Could not load the text templates: Try again soon').waitFor();
    assert.equal(await page.getByText('No text templates yet.').count(), 0);
    failing = false;
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('No text templates yet.').waitFor();

    await page.getByRole('button', { name: 'New text template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New text template' });
    await dialog.getByLabel('Template name').fill('After the showing');
    await dialog.getByLabel('Message').fill('Thanks for coming by, ');
    await dialog.getByLabel('Message').press('End');
    await dialog.getByRole('combobox', { name: 'Insert merge field' }).click();
    await page.getByRole('option', { name: /Contact: first name/ }).click();
    assert.equal(
      await dialog.getByLabel('Message').inputValue(),
      'Thanks for coming by, %contact_first_name%',
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Text template After the showing saved');
    const stored = async () =>
      (await server.get(key, '/v1/textMessageTemplates')).body
        .textmessagetemplates as TextTemplate[];
    const [made] = await stored();
    assert.deepEqual(
      { name: made?.name, message: made?.message, isShared: made?.isShared },
      {
        name: 'After the showing',
        message: 'Thanks for coming by, %contact_first_name%',
        isShared: true,
      },
    );

    await page.getByRole('button', { name: 'Preview After the showing' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview After the showing' });
    await preview.getByLabel('Person').fill('Priya');
    await page.getByRole('option', { name: /Priya Shah/ }).click();
    await preview
      .getByRole('region', { name: 'Merged for Priya Shah' })
      .getByText('Thanks for coming by, Priya')
      .waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'admin-text-template-preview-laptop');
    await preview.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Edit text template After the showing' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit text template After the showing' });
    await edit.getByLabel('Template name').fill('Showing follow-up');
    await edit.getByLabel('Shared with the whole team').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await told(page, 'Text template Showing follow-up saved');
    await page.getByText('Private').waitFor();
    const [edited] = await stored();
    assert.deepEqual(
      { name: edited?.name, isShared: edited?.isShared },
      {
        name: 'Showing follow-up',
        isShared: false,
      },
    );
    await shot(page, 'text-templates-laptop');

    await page.getByRole('button', { name: 'Delete text template Showing follow-up' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await told(page, 'Text template Showing follow-up deleted');
    assert.deepEqual(await stored(), []);
    await context.close();
  });

  it('the list and the editor fit a phone (phone)', async () => {
    const account = await server.newAccount();
    await server.post(account.owner.key, '/v1/textMessageTemplates', {
      name: 'New lead hello',
      message:
        'Hi %contact_first_name%, this is %agent_name% from the team. When suits you for a call?',
      isShared: true,
    });
    const { context: owner, page } = await signedInPage(browser, server, account.owner, PHONE);
    await page.goto('/admin/text-templates');
    await page.getByText('When suits you for a call?', { exact: false }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'text-templates-phone');
    await page.getByRole('button', { name: 'Edit text template New lead hello' }).click();
    await page.getByRole('dialog', { name: 'Edit text template New lead hello' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await shot(page, 'text-template-edit-phone');
    await owner.close();
  });
});
