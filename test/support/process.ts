import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.js';
import type { TestServer } from './server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestSourceChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? newestSourceChange(full) : statSync(full).mtimeMs,
    );
  }
  return newest;
}

let compiledIsCurrent: boolean | undefined;

/**
 * The arguments that run an entry point of src/ ('server', 'app/cli/admin'). Run from the tests'
 * build (scripts/build-tests.mjs, this file compiled), its compiled neighbour; from source, dist/
 * when it was built after the last change to src/, else the source through tsx. Compiled, a start
 * costs half the CPU, and the suites start dozens of processes.
 */
export function entryPoint(name: string): string[] {
  if (import.meta.url.endsWith('.js')) return [path.join(ROOT, 'src', `${name}.js`)];
  const compiled = path.join(ROOT, 'dist', `${name}.js`);
  compiledIsCurrent ??= (() => {
    try {
      return statSync(compiled).mtimeMs > newestSourceChange(path.join(ROOT, 'src'));
    } catch {
      return false;
    }
  })();
  return compiledIsCurrent ? [compiled] : ['--import', 'tsx', path.join(ROOT, 'src', `${name}.ts`)];
}

/** Runs the admin CLI the way `npm run --silent admin --` does. */
export function runAdmin(args: string[], env: Record<string, string>, input = '') {
  const result = spawnSync(process.execPath, [...entryPoint('app/cli/admin'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    cwd: ROOT,
    input,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the server (`src/server.ts`) as its own process. */
export function spawnServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
} {
  let output = '';
  const child = spawn(process.execPath, entryPoint('server'), {
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

/**
 * Worker processes (HEARTH_ROLE=worker) on a test server's database, for tests that kill them:
 * `start` spawns one, `killAll` (SIGKILL unless told, as in after()) stops those still running.
 */
export function workerProcesses() {
  const children: ChildProcess[] = [];
  return {
    start(server: TestServer, env: Record<string, string> = {}): ChildProcess {
      const { child } = spawnServer({
        HEARTH_ROLE: 'worker',
        HEARTH_DATA_DIR: server.dataDir,
        DATABASE_URL:
          process.env.TEST_DATABASE_URL || `sqlite:${path.join(server.dataDir, 'hearth.db')}`,
        HEARTH_LOG_LEVEL: 'warn',
        ...env,
      });
      children.push(child);
      return child;
    },
    killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
      for (const child of children) if (child.exitCode === null) child.kill(signal);
    },
  };
}
