import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the admin CLI the way `npm run --silent admin --` does, from source. */
export function runAdmin(args: string[], env: Record<string, string>, input = '') {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), ...args],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      cwd: ROOT,
      input,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `src/server.ts` as its own process; resolves once it printed `marker` or listened. */
export function spawnServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
} {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], {
    env: { ...process.env, ...env },
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  // A spawned server compiles its TypeScript first: on a loaded 2-core machine that took over 60 s.
  timeoutMs = 150_000,
): Promise<void> {
  await eventually('condition', check, timeoutMs, 100).catch(() => {
    throw new Error('condition not met in time');
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}
