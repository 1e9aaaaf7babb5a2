import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureFirstOwner } from '../../src/app/bootstrap.js';
import { startServer, type TestServer } from '../support/server.js';
import { entryPoint } from '../support/process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  engines: { node: string };
};

/** The shell block of the README's "A walk-through with curl" section. */
function walkThrough(): string {
  const section = README.slice(README.indexOf('## A walk-through with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the walk-through has a ```sh block');
  return block[1];
}

function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The README as a new user reads it: what it promises about the repository holds. */
describe('the README', () => {
  it('names the MIT licence, which LICENSE holds', () => {
    assert.match(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.equal(PACKAGE.license, 'MIT');
    assert.match(README, /## License\s+MIT[^\n]*\(\[LICENSE\]\(LICENSE\)\)/);
  });

  it('recommends a supported Node.js LTS line that package.json engines admit, as are 20, 22 and 24', () => {
    const majors = PACKAGE.engines.node.split('||').map((range) => {
      const match = /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(range);
      assert.ok(match, `engines range ${range} is a caret range`);
      return Number(match[1]);
    });
    assert.deepEqual(majors, [20, 22, 24]);
    const recommended = /Requires npm and Node\.js (\d+) or (\d+) \(the supported LTS lines/.exec(
      README,
    );
    assert.ok(recommended, 'the README says which Node.js lines to use');
    // Node.js 20 reached end of life in April 2026: not a line to recommend.
    assert.deepEqual(recommended.slice(1).map(Number), [22, 24]);
  });

  it('points only to files the repository has', () => {
    const missing: string[] = [];
    for (const [, target] of README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      if (!existsSync(path.join(ROOT, target))) missing.push(target);
    }
    assert.deepEqual(missing, []);
    // The specs of the team's shared workspace are not part of the repository.
    assert.doesNotMatch(README, /shared docs|DESIGN\.md|CONTRACT\.md|compat-notes/);
  });

  it('has docs/ pages that point only to files the repository has', () => {
    const missing: string[] = [];
    for (const page of readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(ROOT, 'docs', page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target) || target.startsWith('/')) continue;
        if (!existsSync(path.join(ROOT, 'docs', target))) missing.push(`${page}: ${target}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('describes the list shape with next and nextLink absent on the last page', () => {
    const sentence = README.slice(README.indexOf('Lists share one shape'));
    assert.match(sentence.slice(0, 400), /`next` and `nextLink` are absent on the last page/);
  });
});

describe('the README walk-through, run as written against a fresh install', () => {
  let server: TestServer;
  let workDir: string;
  let databaseUrl: string;
  before(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'hearth-readme-'));
    // `npm start` on the embedded database, whatever TEST_DATABASE_URL says: the first person,
    // system and webhook get the ids the walk-through uses.
    databaseUrl = `sqlite:${path.join(workDir, 'hearth.db')}`;
    server = await startServer({ env: { DATABASE_URL: databaseUrl } });
    // What `npm start` does on its first start: the owner, its key in data/owner-api-key.
    assert.ok(await ensureFirstOwner(server.ctx));
    writeFileSync(path.join(server.dataDir, 'tls-cert.pem'), server.cert);
    symlinkSync(server.dataDir, path.join(workDir, 'data'));
  });
  after(async () => {
    await server?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers every command with the status its comment names', async () => {
    const script = walkThrough();
    assert.match(script, /^H=https:\/\/localhost:8443$/m, 'the walk-through names the default URL');
    // Every command prints its HTTP status, so the statuses the comments talk about are seen.
    assert.match(script, /^api\(\) \{ curl [^}]*-w '[^']*%\{http_code\}/m);
    const npmUses = [...script.matchAll(/\bnpm [^\n]*/g)].map((m) => m[0]);
    assert.ok(
      npmUses.every((use) => use.startsWith('npm run --silent admin -- ')),
      npmUses.join(),
    );

    const port = new URL(server.url).port;
    const prelude = [
      'set -euo pipefail',
      // `npm run admin` runs the built CLI in the package's folder; here its source.
      `npm() { shift 4; (cd ${JSON.stringify(ROOT)} && ${[process.execPath, ...entryPoint('app/cli/admin')].map((a) => JSON.stringify(a)).join(' ')} "$@"); }`,
    ].join('\n');
    // Asynchronously: the server answering curl runs in this process.
    const run = await runBash(
      `${prelude}\n${script.replace('https://localhost:8443', `https://localhost:${port}`)}`,
      workDir,
      { HEARTH_DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl, HEARTH_LOG_LEVEL: 'warn' },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const statuses = [...run.stdout.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1]));

    // Each `api` command with the comment lines just above it.
    const commands: { comment: string; line: string }[] = [];
    let comment = '';
    for (const line of script.split('\n')) {
      if (line.startsWith('#')) comment += `${line}\n`;
      else if (line.startsWith('api ')) {
        commands.push({ comment, line });
        comment = '';
      } else if (!line.startsWith(' ')) comment = '';
    }
    assert.equal(statuses.length, commands.length, run.stdout);
    commands.forEach(({ comment: text, line }, i) => {
      assert.ok(statuses[i] >= 200 && statuses[i] < 300, `${line}: HTTP ${statuses[i]}`);
      const named = [...text.matchAll(/HTTP (\d{3})/g)].map((m) => Number(m[1]));
      if (named.length)
        assert.ok(named.includes(statuses[i]), `${line}: HTTP ${statuses[i]}, comment: ${text}`);
    });
    assert.deepEqual(statuses.slice(0, 2), [200, 201], 'who am I, then the new lead');
    // The webhook registered to a host of the example is deleted again.
    assert.match(script, /^api -X DELETE [^\n]*\/v1\/webhooks\/\d+$/m);
    assert.equal(statuses.at(-1), 204);
  });

  it('leaves no webhook behind to retry for hours, and its list answer has no next on the last page', async () => {
    const webhooks = await server.ctx.db.selectFrom('webhooks').select('id').execute();
    assert.deepEqual(webhooks, []);
    const key = readFileSync(path.join(server.dataDir, 'owner-api-key'), 'utf8').trim();
    const people = await server.call('GET', '/v1/people?limit=10&sort=-created', { key });
    assert.equal(people.status, 200);
    assert.equal(people.body.people.length, 1);
    assert.equal(people.body._metadata.next, undefined);
    assert.equal(people.body._metadata.nextLink, undefined);
  });

  it('answers create-system a second time with a message that says why', () => {
    const again = spawnSync(
      process.execPath,
      [...entryPoint('app/cli/admin'), 'create-system', '--name', 'MyWebsite'],
      {
        encoding: 'utf8',
        env: { ...process.env, HEARTH_DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl },
      },
    );
    assert.notEqual(again.status, 0);
    assert.match(
      again.stderr,
      /A system named "MyWebsite" is already registered \(its key was shown/,
    );
  });
});
