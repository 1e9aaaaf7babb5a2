import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestServer, TestUser } from '../support/server.js';
import { givePassword } from '../support/auth.js';

/**
 * Debian's Chromium (CI installs it with apt-get; no browser is downloaded), in its headless-shell
 * build when that is installed (package chromium-headless-shell: the same engine without the
 * browser's own layer). The tests need no window, and the shell takes half the CPU: a new context
 * and the login page 1.1 s against 2.3–3.8 s, the admin-auth file 73 s against 136 s of CPU.
 * CHROMIUM_PATH picks another build (e.g. /usr/bin/chromium).
 */
// The binary itself: /usr/bin/chromium-headless-shell is a wrapper that does not exec it.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium chromium-headless-shell`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * How long a wait or an action may take. Playwright's 30 s default is short when CI runs the
 * suites on both databases side by side on two cores; a wait still fails, only later.
 */
const WAIT_MS = 60_000;

/** A fresh browser profile against the test server (its self-signed certificate accepted). */
export async function newContext(
  browser: Browser,
  server: TestServer,
  viewport = LAPTOP,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: server.url,
    ignoreHTTPSErrors: true,
    viewport,
    isMobile: viewport.width < 600,
    hasTouch: viewport.width < 600,
    // No spinners or transitions drawn frame by frame: a third less of Chromium's CPU in CI.
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(WAIT_MS);
  return context;
}

/** Gives the test user a password (as the set-password command would) and signs them in. */
export async function signInUser(page: Page, server: TestServer, user: TestUser): Promise<void> {
  const { email, password } = await givePassword(server, user);
  await signInAs(page, email, password);
}

/** A fresh context at `viewport` and a page in it, signed in as `user` (on the People list). */
export async function signedInPage(
  browser: Browser,
  server: TestServer,
  user: TestUser,
  viewport = LAPTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server, viewport);
  const page = await context.newPage();
  await signInUser(page, server, user);
  return { context, page };
}

/** Signs in through the /login page as a person would; lands on the People list. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'People' }).waitFor();
}

/** axe-core's serious and critical violations on the current page (read in by the DevTools
 * protocol, so the page's CSP, which forbids inline scripts, stays on). */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // A snackbar or dialog still fading in has a see-through colour that axe would judge by;
  // judge the page as it settles.
  await page.evaluate(() =>
    Promise.allSettled(document.getAnimations().map((animation) => animation.finished)),
  );
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            o: object,
          ) => Promise<{
            violations: {
              id: string;
              impact: string;
              help: string;
              nodes: { target: string[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** CPU seconds (user + system) of a process's descendants (the browser this test process
 * started), from /proc (clock ticks of 10 ms). */
export function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = stats.get(p)?.parent ?? 0, hops++)
      if (p === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (pid !== root && inTree(pid)) ticks += stat.ticks;
  return ticks / 100;
}

/** Saves the page as `<name>.png` when SCREENSHOT_DIR names a directory, to look at the screens. */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir)
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: options.fullPage ?? false });
}

/**
 * Types into the People list's Search and waits until the list has taken it (react-admin writes
 * the filter to the URL after a debounce): rows on screen before that are the unfiltered list, and
 * a selection made then is cleared when the filter applies.
 */
export async function searchPeople(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search').fill(text);
  await page.waitForURL((url) => decodeURIComponent(url.href).includes(text));
}
