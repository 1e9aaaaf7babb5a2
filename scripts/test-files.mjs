// The test files of the repository: every *.test.ts under src/ and test/, sorted.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) find(full, out);
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/**
 * The test files whose path contains one of `include` (all of them when it is empty) and none of
 * `exclude`.
 */
export function testFiles(include, exclude = []) {
  const all = ['src', 'test'].flatMap((dir) => find(dir));
  // A pattern that names no file is a list gone stale after a move: say so rather than skip it.
  const stale = [...include, ...exclude].filter((needle) => !all.some((f) => f.includes(needle)));
  if (stale.length > 0) throw new Error(`no test file matches: ${stale.join(', ')}`);
  return all
    .filter((f) => include.length === 0 || include.some((needle) => f.includes(needle)))
    .filter((f) => !exclude.some((needle) => f.includes(needle)))
    .sort();
}

/**
 * The files that take longest, the longest first (the SQLite suite, TEST_TIMES_FILE of one run on
 * a quiet machine, 2026-11-28): run-tests.mjs starts these before the others. In alphabetical order a long file that starts
 * late runs on alone while the other slots have nothing left to do (the 10,000-recipient send
 * started 11 minutes into a 31-minute run and took 9 of them, oauth-bearer started at minute 22);
 * started first, they run beside the short files. A file missing here only starts in its turn.
 */
export const SLOWEST_FIRST = [
  'test/browser/admin-auth.test.ts',
  'test/browser/agent-day.test.ts',
  'test/browser/mailboxes.test.ts',
  'test/browser/admin-config.test.ts',
  'test/browser/automations.test.ts',
  'test/marketing/campaign-durability.test.ts',
  'test/browser/campaign-editor.test.ts',
  'test/browser/campaigns.test.ts',
  'test/browser/accessibility.test.ts',
  'test/browser/sign-in-redirect.test.ts',
  'test/browser/reports.test.ts',
  'test/browser/people-bulk.test.ts',
  'test/browser/imports.test.ts',
  'test/browser/deal-edit.test.ts',
  'test/browser/top-bar.test.ts',
  'test/accounts/oauth-bearer.test.ts',
  'test/browser/admin-smart-lists.test.ts',
  'test/browser/person-inline.test.ts',
  'test/accounts/auth-sessions.test.ts',
  'test/app/cli-and-start.test.ts',
  'test/browser/admin-text-templates.test.ts',
  'test/browser/settings.test.ts',
  'test/browser/person-actions.test.ts',
  'test/browser/campaign-pages.test.ts',
  'test/browser/admin-ponds-teams.test.ts',
  'test/browser/admin-stages.test.ts',
  'test/browser/import-values.test.ts',
  'test/browser/person-inbox.test.ts',
  'test/contacts/imports-resume.test.ts',
  'test/app/fuzz-routes.test.ts',
  'test/contacts/people-bulk-resume.test.ts',
];

/** `files` with those SLOWEST_FIRST names at the front, in its order; the rest keep theirs. */
export function slowestFirst(files) {
  const rank = (file) => {
    const i = SLOWEST_FIRST.findIndex((needle) => file.includes(needle));
    return i === -1 ? SLOWEST_FIRST.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

/** The arguments that run compiled test files (build-tests.mjs) with node's test runner. */
export const TEST_RUNNER_ARGS = ['--test', '--test-reporter=spec'];
