import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  startServer,
  type TestAccount,
  type TestServer,
  type TestUser,
} from '../support/server.js';
import { givePassword } from '../support/auth.js';
import {
  MCP_URL,
  type Structured,
  TestOAuthProvider,
  testFetch,
} from '../assistants/mcp-helpers.js';
import {
  LAPTOP,
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  shot,
} from './browser.js';

describe('MCP: an assistant is allowed on the consent page in Chromium, then works as that user', () => {
  let server: TestServer;
  let browser: Browser;
  let account: TestAccount;
  let fetch: ReturnType<typeof testFetch>;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    fetch = testFetch(server);
    account = await server.newAccount();
  });
  after(async () => {
    await browser?.close();
    await fetch?.close();
    await server?.close();
  });

  /** The SDK's OAuth flow up to the authorization URL it would open in the user's browser. */
  async function registerAssistant(provider: TestOAuthProvider) {
    const transport = new StreamableHTTPClientTransport(MCP_URL, { fetch, authProvider: provider });
    const client = new Client({ name: 'assistant', version: '1' });
    await assert.rejects(client.connect(transport), UnauthorizedError);
    assert.ok(provider.authorizationUrl, 'the SDK asked to open the consent page');
    return transport;
  }

  /** The user signs in and presses Allow; answers the code the assistant's callback received. */
  async function consentInBrowser(
    provider: TestOAuthProvider,
    agent: TestUser,
    size: string,
    viewport: typeof LAPTOP,
  ): Promise<string> {
    const { email, password } = await givePassword(server, agent);
    const context = await newContext(browser, server, viewport);
    // The assistant's callback is on its own host: answered here instead of the network.
    await context.route(`${provider.redirect}**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Assistant connected</h1>' }),
    );
    const page = await context.newPage();
    await page.goto(`/oauth/authorize?${provider.authorizationUrl!.searchParams}`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('heading', { name: `Allow ${provider.name} to use your Hearth account?` })
      .waitFor();
    const text = await page.locator('main').innerText();
    assert.match(text, /with your access as Agent/);
    assert.match(text, /registered itself/);
    assert.match(text, /assistant\.example\.com/);
    assert.deepEqual(await seriousA11yViolations(page), [], size);
    const allow = page.getByRole('button', { name: 'Allow' });
    for (const button of [allow, page.getByRole('button', { name: 'Deny' })]) {
      const box = (await button.boundingBox())!;
      assert.ok(
        box.y >= 0 && box.y + box.height <= viewport.height,
        `${await button.innerText()} is on the first screen of a ${size} (at ${box.y}px)`,
      );
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 1, `the consent page is wider than a ${size} by ${overflow}px`);
    await shot(page, `mcp-consent-${size}`);
    await shot(page, `mcp-consent-${size}-full`, { fullPage: true });
    await allow.click();
    await page.getByRole('heading', { name: 'Assistant connected' }).waitFor();
    const code = new URL(page.url()).searchParams.get('code');
    await context.close();
    assert.match(code ?? '', /^hac_/);
    return code!;
  }

  for (const [size, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    it(`on a ${size}: registers, consents, and calls tools with the Agent's role`, async () => {
      const agent = await account.addUser('Agent');
      const mine = await server.newPerson(account.owner.key, {
        assignedUserId: agent.id,
        lastName: `Mine-${size}`,
      });
      const notMine = await server.newPerson(account.owner.key, { lastName: `Other-${size}` });
      const provider = new TestOAuthProvider(`Claude on a ${size}`);
      const first = await registerAssistant(provider);

      await first.finishAuth(await consentInBrowser(provider, agent, size, viewport));
      assert.ok(provider.saved?.access_token, 'the SDK exchanged the code for a token');

      const client = new Client({ name: 'assistant', version: '1' });
      const transport = new StreamableHTTPClientTransport(MCP_URL, {
        fetch,
        authProvider: provider,
      });
      await client.connect(transport);
      const search = await client.callTool({ name: 'search_people', arguments: { query: 'Pat' } });
      assert.equal(search.isError, undefined, JSON.stringify(search));
      const found = (search.structuredContent as Structured).people.map((p: Structured) => p.id);
      assert.deepEqual(found, [mine.id], "the Agent's assistant finds the Agent's people only");
      const denied = await client.callTool({
        name: 'get_person',
        arguments: { personId: notMine.id },
      });
      assert.equal(denied.isError, true);
      const note = await client.callTool({
        name: 'add_note',
        arguments: { personId: mine.id, body: `Called from the ${size}` },
      });
      assert.equal(note.isError, undefined, JSON.stringify(note));
      const notes = await server.get(account.owner.key, `/v1/notes?personId=${mine.id}`);
      assert.equal(notes.body.notes[0].createdById, agent.id, 'the note is the Agent’s');
      await transport.terminateSession();
      await client.close();
    });
  }
});
