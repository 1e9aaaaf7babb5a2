// Screenshots of the admin area's Systems (rate-limit usage) and Webhooks screens and of the New
// deal form (docs/screenshots/), at laptop and phone size, on a throwaway server whose clock is
// moved through the last day so that the usage chart has a day of traffic.
//   node --import tsx scripts/web-screenshots-ops.ts
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startServer } from '../test/support/server.js';
import { givePassword } from '../test/support/auth.js';
import { LAPTOP, PHONE, launchBrowser, newContext, signInAs } from '../test/browser/browser.js';
import { createSystem } from '../src/accounts/accounts.service.js';

const OUT = 'docs/screenshots';
const HOUR = 3_600_000;
const realNow = Date.now();
let now = realNow - 23 * HOUR;
const clock = { now: () => now };

const limits = path.join(mkdtempSync(path.join(tmpdir(), 'hearth-shots-')), 'limits.json');
writeFileSync(limits, JSON.stringify({ withSystemKey: { global: 40 } }));
const server = await startServer({
  clock,
  env: { HEARTH_RATE_LIMITS: limits, HEARTH_WEBHOOK_ALLOW_PRIVATE: '1' },
});
const account = await server.newAccount('Sunrise Realty');
const key = account.owner.key;
const suffix = Date.now().toString(36).slice(-4);
const website = await createSystem(server.ctx.db, `sunrise-website-${suffix}`);
const dialer = await createSystem(server.ctx.db, `DialMax-${suffix}`);
const as = (s: { system: string; systemKey: string }) => ({
  'x-system': s.system,
  'x-system-key': s.systemKey,
});

// A working day: quiet at night, busy from 9 to 18, one import burst at 11 that hits the limit.
for (let h = 0; h < 24; h += 1) {
  now = realNow - (23 - h) * HOUR;
  const local = new Date(now).getUTCHours();
  const busy = local >= 9 && local <= 18;
  const count = busy ? 14 + ((h * 7) % 11) : 2 + (h % 3);
  for (let i = 0; i < count; i += 1) await server.get(key, '/v1/stages', as(website));
  if (busy) for (let i = 0; i < count / 2; i += 1) await server.get(key, '/v1/users', as(dialer));
  if (local === 11)
    for (let i = 0; i < 55; i += 1) await server.get(key, '/v1/stages', as(website));
}
now = realNow;

const hooks = [
  ['peopleCreated', 'https://hooks.sunrise-realty.com/hearth/people'],
  ['peopleUpdated', 'https://hooks.sunrise-realty.com/hearth/people'],
  ['notesCreated', 'https://hooks.sunrise-realty.com/hearth/notes'],
];
for (const [event, url] of hooks) {
  const at = new Date().toISOString().slice(0, 19) + 'Z';
  await server.ctx.db
    .insertInto('webhooks')
    .values({
      account_id: account.accountId,
      system: website.system,
      event,
      url,
      status: event === 'notesCreated' ? 'Disabled' : 'Active',
      created_at: at,
      updated_at: at,
    })
    .execute();
}
const pipeline = await server.post(key, '/v1/pipelines', {
  name: 'Buyers',
  stages: [{ name: 'Qualified' }, { name: 'Showing' }, { name: 'Offer' }],
});
await server.post(key, '/v1/deals', {
  name: '12 Elm St purchase',
  pipelineId: pipeline.body.id,
  stageId: pipeline.body.stages[0].id,
  price: 325000,
});

const { email, password } = await givePassword(server, account.owner);
const browser = await launchBrowser();
mkdirSync(OUT, { recursive: true });

async function shot(page: Page, name: string, address: string, heading: string) {
  await page.goto(address);
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
  await signInAs(page, email, password);
  await shot(page, `admin-systems-${size}`, '/admin/systems', 'Systems');
  await shot(
    page,
    `admin-webhooks-${size}`,
    `/admin/webhooks?system=${encodeURIComponent(website.system)}`,
    'Webhooks',
  );
  await page.getByRole('button', { name: 'New webhook' }).click();
  await page.getByRole('dialog', { name: 'New webhook' }).getByLabel('Callback URL').waitFor();
  await page.screenshot({ path: `${OUT}/admin-webhook-new-${size}.png` });
  await page.goto('/deals');
  await page.getByRole('button', { name: 'New deal' }).click();
  const dialog = page.getByRole('dialog', { name: 'New deal' });
  await dialog.getByLabel('Deal name').fill('48 Oak Ave purchase');
  await dialog.getByLabel('Price').fill('410000');
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${OUT}/deal-new-${size}.png` });
  await context.close();
}
await browser.close();
await server.close();
console.log(`screenshots in ${OUT}/`);
