// Compiles src/, test/ and bench/ to JavaScript for the test runs (esbuild, as tsx does, one file
// at a time), into a mirror of the repository in node_modules/.cache/hearth-tests: the other
// top-level entries (README.md, docs/, web/, package.json…) are links, so a path a test or the app
// finds from its own file resolves as in the checkout. A test process then starts without tsx's
// module hooks, which doubled the CPU of loading the app in each of ~180 processes.
// Only files changed since the last build are compiled again.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_BUILD = path.join(ROOT, 'node_modules', '.cache', 'hearth-tests');
// Their .ts files compiled, other files linked (web/src: only the .ts modules, which tests import;
// the .tsx are the web build's).
const COMPILED_DIRS = ['src', 'test', 'bench', 'scripts', 'web/src'];
// Folders made in the build, their other entries linked: the top level and web/.
const MIRRORED = {
  '.': new Set(['src', 'test', 'bench', 'scripts', 'web', 'node_modules', '.git']),
  web: new Set(['src']),
};
// What tsconfig.json gives tsc (target ES2022: class fields are defined, as tsc emits them).
const TSCONFIG = { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } };

/** The path in the build of a source file of the checkout (`test/x.test.ts` → `…/test/x.test.js`). */
export function builtPath(sourceFile) {
  const relative = path.relative(ROOT, path.resolve(ROOT, sourceFile));
  return path.join(TEST_BUILD, relative.replace(/\.ts$/, '.js'));
}

function linkEntries(dir, notLinked) {
  mkdirSync(path.join(TEST_BUILD, dir), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, dir))) {
    if (notLinked.has(entry)) continue;
    const link = path.join(TEST_BUILD, dir, entry);
    const target = path.join(ROOT, dir, entry);
    if (isLinkTo(link, target)) continue;
    rmSync(link, { force: true, recursive: true });
    symlinkSync(target, link);
  }
}

function isLinkTo(link, target) {
  try {
    return readlinkSync(link) === target;
  } catch {
    return false;
  }
}

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else out.push(full);
  }
  return out;
}

async function compile(file, target) {
  const source = await readFile(file, 'utf8');
  const result = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcefile: file,
    sourcemap: 'inline',
    tsconfigRaw: TSCONFIG,
  });
  writeFileSync(target, result.code);
}

/** Brings the build up to date with the checkout; returns how many files were compiled. */
export async function buildTests() {
  // A folder linked whole by an earlier layout of the build would have the compiled files written
  // into the checkout: it is made a real folder first.
  for (const dir of [...Object.keys(MIRRORED), ...COMPILED_DIRS]) {
    const inBuild = path.join(TEST_BUILD, dir);
    if (isLinkTo(inBuild, path.join(ROOT, dir))) rmSync(inBuild);
  }
  for (const [dir, notLinked] of Object.entries(MIRRORED)) linkEntries(dir, notLinked);
  const work = [];
  for (const dir of COMPILED_DIRS) {
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      if (dir === 'web/src' && !file.endsWith('.ts')) continue;
      const isTs = file.endsWith('.ts');
      const target = isTs ? builtPath(file) : path.join(TEST_BUILD, path.relative(ROOT, file));
      if (existsSync(target) && statSync(target).mtimeMs >= statSync(file).mtimeMs) continue;
      mkdirSync(path.dirname(target), { recursive: true });
      // Fixtures and other data are linked, so a test reads them where the checkout has them.
      if (!isTs) {
        rmSync(target, { force: true });
        symlinkSync(file, target);
      } else work.push(compile(file, target));
    }
  }
  await Promise.all(work);
  return work.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const compiled = await buildTests();
  const ms = Math.round(performance.now() - started);
  console.log(`compiled ${compiled} files into ${path.relative(ROOT, TEST_BUILD)} in ${ms} ms`);
}
