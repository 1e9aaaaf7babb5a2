// The layers of src/ (docs/architecture.md): platform/ imports no domain, nothing imports app/
// (the composition root) but the entry points, and a domain imports only the domains below it in
// DOMAINS. Exits 1 listing every import that breaks them.
import madge from 'madge';

const ENTRY_POINTS = new Set(['server.ts', 'worker.ts']);
/**
 * Bottom first; a domain may import those before it. Domains on one line may import each other
 * (leads' events start marketing's action plans; marketing's automations use leads' rotation).
 */
const DOMAINS = [
  ['access'],
  ['accounts'],
  ['contacts'],
  ['timeline'],
  ['leads', 'marketing'],
  ['deals'],
  ['inbox'],
  ['reports'],
  ['assistants'],
];
const rank = new Map(DOMAINS.flatMap((line, i) => line.map((domain) => [domain, i])));
/** `*.tables.ts` declare types only, joined into the one `DB` type: any module may name any table. */
const isSchema = (file) => file.endsWith('.tables.ts');
const graph = (
  await madge('src', {
    fileExtensions: ['ts'],
    tsConfig: 'tsconfig.json',
    detectiveOptions: { ts: { skipTypeImports: false } },
  })
).obj();

const layer = (file) => file.split('/')[0];
const broken = [];
const isTest = (file) => file.startsWith('../') || /\.test(kit)?\.ts$/.test(file);
for (const [file, imports] of Object.entries(graph)) {
  if (isTest(file)) continue;
  const top = layer(file);
  if (!ENTRY_POINTS.has(top) && !['platform', 'app'].includes(top) && !rank.has(top))
    broken.push(`${file} (add ${top}/ to DOMAINS in scripts/check-layers.mjs)`);
  for (const target of imports) {
    if (layer(file) === 'platform' && layer(target) !== 'platform')
      broken.push(`${file} -> ${target} (platform/ imports a domain)`);
    if (layer(target) === 'app' && layer(file) !== 'app' && !ENTRY_POINTS.has(file))
      broken.push(`${file} -> ${target} (only the entry points import app/)`);
    const [from, to] = [rank.get(layer(file)), rank.get(layer(target))];
    if (from !== undefined && to !== undefined && to > from && !isSchema(target))
      broken.push(`${file} -> ${target} (${layer(file)}/ stands below ${layer(target)}/)`);
  }
}
if (broken.length > 0) {
  console.error(`Layering broken by ${broken.length} import(s):\n${broken.join('\n')}`);
  process.exit(1);
}
console.log(
  `Layers hold: ${Object.keys(graph).length} modules, platform/ imports no domain, domains import down.`,
);
