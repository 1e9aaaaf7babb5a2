import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, entryPoint } from '../support/process.js';
import { migrations } from '../../src/platform/db/migrations/index.js';

function migrateInOwnProcess(
  dir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...entryPoint('app/cli/admin'), 'migrate'], {
      env: {
        ...process.env,
        HEARTH_DATA_DIR: dir,
        DATABASE_URL: `sqlite:${path.join(dir, 'hearth.db')}`,
      },
      cwd: ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('migrations on SQLite', () => {
  it('processes starting together on a new file migrate one after the other, each migration once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-migrate-'));
    try {
      const runs = await Promise.all([1, 2, 3, 4].map(() => migrateInOwnProcess(dir)));
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const applied = runs.flatMap((run) => JSON.parse(run.stdout).migrated as string[]);
      assert.deepEqual(applied.sort(), Object.keys(migrations).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
