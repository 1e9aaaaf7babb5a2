import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { LAPTOP, launchBrowser, PHONE, seriousA11yViolations, signedInPage } from './browser.js';

/** Screenshots go to a scratch folder; HEARTH_SCREENSHOTS=1 refreshes docs/screenshots' own. */
const SHOTS = process.env.HEARTH_SCREENSHOTS
  ? 'docs/screenshots'
  : path.join(tmpdir(), 'hearth-reports-page');

/** Leads a screenshot can show (docs/screenshots/reports-*.png). */
const LEADS = [
  'Maya Patel',
  'Jordan Lee',
  'Sofia Garcia',
  'Ethan Brooks',
  'Ava Chen',
  'Noah Kim',
  'Liam Ortiz',
  'Emma Ross',
  'Olivia Hart',
];
const MINUTE = 60_000;

describe('the Reports page in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  /** How far the server's clock is set back while a history is written (0: the real time). */
  let clockShift = 0;
  before(async () => {
    server = await startServer({ clock: { now: () => Date.now() + clockShift } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Nine leads from three sources, split between two agents; each agent calls six of them. With
   * `history`, the leads arrive over the last nine days and each call comes minutes after its lead
   * (speed to lead); without, everything happens now.
   */
  async function seed(history = false) {
    const account = await server.newAccount('Harbor Realty');
    const key = account.owner.key;
    const agent = await account.addUser('Agent', 'Dana Agent');
    const other = await account.addUser('Agent', 'Sam Rivera');
    const post = async (path: string, body: unknown, as = key) => {
      const res = await server.post(as, path, body);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const sources = ['Zillow', 'Website', 'Open house'];
    for (let i = 0; i < 9; i++) {
      const owner = i % 2 ? agent : other;
      if (history) clockShift = -(9 - i) * 24 * 60 * MINUTE;
      const person = await post('/v1/people', {
        name: LEADS[i],
        source: sources[i % 3],
        assignedUserId: owner.id,
      });
      if (history) clockShift += (i + 1) * 7 * MINUTE;
      if (i % 3 !== 2)
        await post('/v1/calls', { personId: person.id, isIncoming: false }, owner.key);
      if (i % 4 === 0)
        await post('/v1/notes', { personId: person.id, body: 'Asked about schools' }, owner.key);
    }
    clockShift = 0;
    const pipeline = await post('/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Qualified' }, { name: 'Offer' }],
    });
    await post('/v1/deals', { name: 'Oak', stageId: pipeline.stages[0].id, price: 420000 });
    await post('/v1/deals', { name: 'Elm', stageId: pipeline.stages[1].id, price: 615000 });
    const campaign = await post('/v1/emCampaigns', {
      origin: 'Mailchimp',
      originId: 'spring',
      name: 'Spring open house',
      subject: 'Open house',
      bodyHtml: 'b',
    });
    const lead = (await server.get(key, '/v1/people?limit=2')).body.people;
    const event = (type: string, i: number) => ({
      type,
      campaignId: campaign.id,
      personId: lead[i].id,
    });
    await post('/v1/emEvents', {
      emEvents: [event('delivered', 0), event('delivered', 1), event('open', 0), event('click', 0)],
    });
    return { account, agent };
  }

  it('charts every report with tables, drills down to people, and passes axe', async () => {
    const { account } = await seed(true);
    mkdirSync(SHOTS, { recursive: true });
    for (const [viewport, name] of [
      [LAPTOP, 'laptop'],
      [PHONE, 'phone'],
    ] as const) {
      const { context, page } = await signedInPage(browser, server, account.owner, viewport);
      if (viewport === PHONE)
        await page
          .getByRole('button', { name: /open menu|menu/i })
          .first()
          .click();
      await page.getByRole('menuitem', { name: 'Reports' }).click();
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
      const sources = page.getByRole('table', { name: 'Leads by source: figures' });
      await sources.getByRole('row', { name: /Zillow/ }).waitFor();
      assert.match(
        (await sources.getByRole('row', { name: /Zillow/ }).innerText()).replace(/\s+/g, ' '),
        /Zillow 3 3 0 0 %/,
      );
      await page.getByRole('img', { name: /Speed to lead: bar chart/ }).waitFor();
      await page
        .getByRole('table', { name: 'Pipeline value by stage: figures' })
        .getByText('$615,000')
        .waitFor();
      const campaigns = page.getByRole('table', { name: 'Email campaigns: figures' });
      assert.match(
        (await campaigns.getByRole('row', { name: /Spring/ }).innerText()).replace(/\s+/g, ' '),
        /Spring open house 2 1 1 0 0/,
      );
      const csv = page.getByRole('link', { name: 'Download CSV: Leads by source' });
      assert.match((await csv.getAttribute('href')) ?? '', /leadSources\?.*format=csv/);
      assert.deepEqual(await seriousA11yViolations(page), [], `${name}: axe`);
      await page.screenshot({
        path: `${SHOTS}/reports-${name}.png`,
        fullPage: viewport === LAPTOP,
      });

      await sources.getByRole('button', { name: 'People: Website' }).click();
      const drill = page.getByRole('region', { name: 'People: Website' });
      await drill.getByRole('link', { name: LEADS[1] }).waitFor();
      assert.deepEqual(
        (await drill.getByRole('link').allInnerTexts()).filter((t) => LEADS.includes(t)),
        [LEADS[1], LEADS[4], LEADS[7]],
      );
      assert.deepEqual(await seriousA11yViolations(page), [], `${name}: axe with the drill-down`);
      await context.close();
    }
  });

  it("shows a team leader the team's day on My day, and passes axe", async () => {
    const { account, agent } = await seed();
    const leader = await account.addUser('Agent', 'Lea Leader');
    const post = async (path: string, body: unknown) => {
      const res = await server.post(account.owner.key, path, body);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    await post('/v1/teams', { name: 'North', userIds: [agent.id], leaderIds: [leader.id] });
    const people = (await server.get(account.owner.key, `/v1/people?assignedUserId=${agent.id}`))
      .body.people;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const name of ['Call back', 'Send listings'])
      await post('/v1/tasks', {
        personId: people[0].id,
        name,
        assignedUserId: agent.id,
        dueDate: yesterday,
      });
    for (const [viewport, name] of [
      [LAPTOP, 'laptop'],
      [PHONE, 'phone'],
    ] as const) {
      const { context, page } = await signedInPage(browser, server, leader, viewport);
      await page.goto(`${server.url}/my-day`);
      const team = page.getByRole('region', { name: 'My team' });
      const row = team.getByRole('row', { name: /Dana Agent/ });
      await row.waitFor();
      // Dana's 4 new leads: the 2nd, 4th and 8th contacted, the 6th not
      assert.match((await row.innerText()).replace(/\s+/g, ' '), /Dana Agent 1 2 0 4/);
      assert.deepEqual(await seriousA11yViolations(page), [], `${name}: axe on My day`);
      await page.screenshot({ path: `${SHOTS}/my-day-team-${name}.png`, fullPage: true });
      await context.close();
    }
    // an agent leading no team sees no team panel
    const { context, page } = await signedInPage(browser, server, agent);
    await page.goto(`${server.url}/my-day`);
    await page
      .getByRole('region', { name: /^Overdue/ })
      .getByText('Call back')
      .waitFor();
    assert.equal(await page.getByRole('region', { name: 'My team' }).count(), 0);
    await context.close();
  });
});
