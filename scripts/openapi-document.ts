// The OpenAPI document the server serves at /openapi.json, built on an in-memory database without
// listening (scripts/write-openapi.ts and scripts/write-api-types.ts use it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/app/bootstrap.js';
import { buildApp, type BuildOptions } from '../src/app/app.js';

export async function buildOpenApiDocument(
  publicUrl = process.env.HEARTH_PUBLIC_URL ?? 'https://hearth.local',
  onRoute?: BuildOptions['onRoute'],
): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-openapi-'));
  // The served document names HEARTH_PUBLIC_URL as its server; this one a placeholder for it.
  const config = loadConfig({
    HEARTH_DATA_DIR: dataDir,
    DATABASE_URL: 'sqlite::memory:',
    HEARTH_PUBLIC_URL: publicUrl,
  });
  const ctx = await createContext(config, { log: pino({ level: 'silent' }) });
  try {
    const app = await buildApp(ctx, { onRoute });
    await app.ready();
    const document = JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await ctx.db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
