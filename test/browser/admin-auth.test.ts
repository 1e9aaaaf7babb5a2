import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer, unique } from '../support/server.js';
import { givePassword } from '../support/auth.js';
import { newClient, REDIRECT } from '../accounts/oauth-helpers.js';
import {
  LAPTOP,
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  shot,
  signInAs,
} from './browser.js';

interface Stage {
  id: number;
  name: string;
  orderWeight: number;
}

describe('admin area and sign-in rules in the browser', () => {
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

  async function ownerPage(viewport?: typeof PHONE) {
    const account = await server.newAccount();
    const { email, password } = await givePassword(server, account.owner);
    const context = await newContext(browser, server, viewport);
    const page = await context.newPage();
    await signInAs(page, email, password);
    return { account, context, page };
  }

  const stagesOf = async (key: string) =>
    ((await server.get(key, '/v1/stages?limit=100')).body.stages as Stage[]).sort(
      (a, b) => a.orderWeight - b.orderWeight,
    );

  it('dragging a stage onto another puts it in that place and renumbers orderWeight', async () => {
    const { account, context, page } = await ownerPage();
    await page.goto('/admin/stages');
    await page.getByRole('heading', { name: 'Stages' }).waitFor();
    const list = page.getByRole('list', { name: 'Stages in order' });
    await list.getByRole('listitem', { name: 'Sphere' }).waitFor();
    await list
      .getByRole('listitem', { name: 'Sphere' })
      .dragTo(list.getByRole('listitem', { name: 'Prospect' }));
    await page.getByText('Sphere moved').waitFor();
    let stages = await stagesOf(account.owner.key);
    assert.deepEqual(
      stages.slice(0, 3).map((s) => s.name),
      ['Lead', 'Sphere', 'Prospect'],
    );
    assert.deepEqual(
      stages.map((s) => s.orderWeight),
      stages.map((_s, i) => (i + 1) * 10),
    );
    // The page shows the new order too, and Move down works from the keyboard.
    const names = await list
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    assert.deepEqual(names.slice(0, 3), ['Lead', 'Sphere', 'Prospect']);
    await page.getByRole('button', { name: 'Move down: Sphere' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Sphere moved').last().waitFor();
    await page.waitForTimeout(200);
    stages = await stagesOf(account.owner.key);
    assert.deepEqual(
      stages.slice(0, 3).map((s) => s.name),
      ['Lead', 'Prospect', 'Sphere'],
    );
    await shot(page, 'hearth-admin-stages-laptop', { fullPage: true });
    await context.close();
  });

  it('custom fields: a dropdown field for people is added and listed', async () => {
    const { account, context, page } = await ownerPage();
    await page.goto('/admin/custom-fields');
    await page.getByRole('heading', { name: 'Custom fields' }).waitFor();
    await page.getByLabel('New people field label').fill('Preferred area');
    await page.getByRole('combobox', { name: 'Type' }).first().click();
    await page.getByRole('option', { name: 'dropdown' }).click();
    await page.getByLabel('Choices (comma-separated)').fill('North, South');
    await page.getByRole('button', { name: 'Add field' }).first().click();
    await page.getByRole('table', { name: 'People fields' }).getByText('Preferred area').waitFor();
    const fields = await server.get(account.owner.key, '/v1/customFields');
    const added = fields.body.customfields.find(
      (f: { label: string }) => f.label === 'Preferred area',
    );
    assert.deepEqual(added.choices, ['North', 'South']);
    assert.equal(added.type, 'dropdown');
    await context.close();
  });

  it('invite → set password → sign in', async () => {
    const { context, page } = await ownerPage();
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    const email = `${unique('newcomer')}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Nora Newcomer');
    await page.getByRole('button', { name: 'Send invite' }).click();
    const linkField = page.getByLabel('Invite link');
    await linkField.waitFor();
    const link = new URL(await linkField.inputValue());
    await page.getByRole('table', { name: 'Pending invites' }).getByText(email).waitFor();
    await shot(page, 'hearth-admin-users-laptop', { fullPage: true });
    await context.close();

    const invitee = await newContext(browser, server);
    const own = await invitee.newPage();
    await own.goto(`${link.pathname}${link.search}`);
    await own.getByLabel('New password').fill('meadow-lantern-river-88');
    await own.getByLabel('Repeat password').fill('meadow-lantern-river-88');
    await own.getByRole('button', { name: 'Save password' }).click();
    await own.getByRole('heading', { name: 'People' }).waitFor();
    await own.getByRole('button', { name: 'Sign out' }).click();
    await own.waitForURL(/\/login/);
    await signInAs(own, email, 'meadow-lantern-river-88');
    await invitee.close();
  });

  it('Users and Pending invites fit their cards on a phone and a laptop, Role and Actions in view', async () => {
    const account = await server.newAccount();
    const { email, password } = await givePassword(server, account.owner);
    await account.addUser('Agent', 'Agnes Fieldworker-Longname');
    await server.post(account.owner.key, '/v1/invites', {
      email: `${unique('invitee')}@example.com`,
      name: 'Ivo Invitee',
      role: 'Lender',
    });
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['laptop', LAPTOP],
    ] as const) {
      const context = await newContext(browser, server, viewport);
      const page = await context.newPage();
      await signInAs(page, email, password);
      await page.goto('/admin/users');
      const select = page.getByRole('combobox', { name: 'Role of Agnes Fieldworker-Longname' });
      await select.waitFor();
      const users = page.getByRole('table', { name: 'Users' });
      await page.getByRole('table', { name: 'Pending invites' }).getByText('Ivo Invitee').waitFor();
      for (const name of ['Users', 'Pending invites']) {
        const { table, card } = await page
          .getByRole('table', { name })
          .evaluate((el) => ({ table: el.scrollWidth, card: el.parentElement!.clientWidth }));
        assert.ok(table <= card, `${name} table is ${table}px wide in a ${card}px card (${size})`);
      }
      // The whole control, outline and arrow included, inside the screen.
      const controls = {
        'Role select': select.locator(
          'xpath=ancestor::div[contains(@class,"MuiFormControl-root")]',
        ),
        Deactivate: page.getByRole('button', { name: 'Deactivate Agnes Fieldworker-Longname' }),
        Withdraw: page.getByRole('button', { name: /^Withdraw the invite for / }),
      };
      for (const [what, control] of Object.entries(controls)) {
        const box = await control.boundingBox();
        const inside = box && box.x >= 0 && box.x + box.width <= viewport.width;
        assert.ok(inside, `${what} cut off on a ${size}`);
      }
      // Each user's email stays on the screen: its own column on a laptop, under the name on a phone.
      await users.getByText(/^agent-.*@example\.com$/).waitFor();
      const emailColumn = await users.getByRole('columnheader', { name: 'Email' }).count();
      assert.equal(emailColumn, size === 'laptop' ? 1 : 0, `Email column on a ${size}`);
      assert.deepEqual(await seriousA11yViolations(page), [], `/admin/users on a ${size}`);
      await shot(page, `hearth-admin-users-rows-${size}`, { fullPage: true });
      await context.close();
    }
  });

  it('after five wrong passwords for one email, sign-in is refused for a while', async () => {
    const account = await server.newAccount();
    const { email, password } = await givePassword(server, account.owner);
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto('/login');
    const alert = page.getByRole('alert');
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(`wrong-password-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Wrong email or password').waitFor();
    }
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/Too many failed sign-ins; try again in \d+ seconds/).waitFor();
    assert.match((await alert.textContent()) ?? '', /Too many failed sign-ins/);
    assert.match(page.url(), /\/login$/);
    await context.close();
  });

  it('a write without the CSRF token is refused', async () => {
    const { context, page } = await ownerPage();
    const answer = await page.evaluate(async () => {
      const res = await fetch('/v1/people', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ firstName: 'Forged' }),
        credentials: 'same-origin',
      });
      return { status: res.status, body: await res.text() };
    });
    assert.equal(answer.status, 403);
    assert.match(answer.body, /Missing or wrong CSRF token/);
    await context.close();
  });

  for (const decision of ['Allow', 'Deny'] as const) {
    it(`OAuth consent: sign-in first, then ${decision} returns to the application`, async () => {
      const account = await server.newAccount();
      const { email, password } = await givePassword(server, account.owner);
      const client = await newClient(server, account.accountId);
      const context = await newContext(browser, server);
      // The application's callback is on another host: answered here instead of the network.
      await context.route(`${REDIRECT}**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<h1>Listing App callback</h1>' }),
      );
      const page = await context.newPage();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        state: 'browser-state',
      });
      await page.goto(`/oauth/authorize?${query}`);
      await page.waitForURL(/\/login\?next=/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('heading', { name: /Allow Listing App to use your Hearth account/ })
        .waitFor();
      assert.match(await page.content(), new RegExp(email.replace('.', '\\.')));
      assert.deepEqual(await seriousA11yViolations(page), []);
      await shot(page, `hearth-consent-${decision}`);
      await page.getByRole('button', { name: decision }).click();
      await page.getByRole('heading', { name: 'Listing App callback' }).waitFor();
      const back = new URL(page.url());
      assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
      assert.equal(back.searchParams.get('state'), 'browser-state');
      if (decision === 'Allow') assert.match(back.searchParams.get('code') ?? '', /^hac_/);
      else assert.equal(back.searchParams.get('error'), 'access_denied');
      await context.close();
    });
  }

  for (const [size, viewport] of [
    ['laptop', undefined],
    ['phone', PHONE],
  ] as const) {
    it(`admin screens have no serious or critical axe violations on a ${size}`, async () => {
      const { context, page } = await ownerPage(viewport);
      for (const [path, heading] of [
        ['/admin', 'Admin'],
        ['/admin/users', 'Users'],
        ['/admin/stages', 'Stages'],
        ['/admin/custom-fields', 'Custom fields'],
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading, exact: true }).waitFor();
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await seriousA11yViolations(page), [], `${path} on a ${size}`);
        await shot(page, `hearth${path.replace(/\//g, '-')}-${size}`, { fullPage: true });
        await assertFitsWidth(page);
      }
      await context.close();
    });
  }
});

async function assertFitsWidth(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 1, `page wider than the screen by ${overflow}px`);
}
