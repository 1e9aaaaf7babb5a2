// After `vite build`: a .br and a .gz beside each JS/CSS/SVG/HTML file of web/dist, so the server
// (@fastify/static preCompressed) sends them compressed with no CPU spent per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new globalThis.URL('../web/dist/', import.meta.url));
const COMPRESSIBLE = /\.(js|css|svg|html|json|txt)$/;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry)) yield full;
  }
}

for (const file of files(root)) {
  const raw = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
