import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { createContext, createLogger, ensureFirstOwner } from './bootstrap.js';
import { loadTls } from './tls.js';
import { startWorker } from './worker.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config);
  const ctx = await createContext(config, { log });

  const ownerKey = await ensureFirstOwner(ctx);
  if (ownerKey) {
    process.stdout.write(
      `\nFirst start: created account "My Team" and its owner.\nOwner API key (shown once, also saved to ${config.dataDir}/owner-api-key):\n\n  ${ownerKey}\n\n`,
    );
  }

  const app = config.role === 'worker' ? null : await buildApp(ctx, config.trustProxy ? {} : { https: await loadTls(config) });
  if (app) {
    if (!config.trustProxy && !config.tlsCertFile) log.info({ cert: `${config.dataDir}/tls-cert.pem` }, 'using a self-signed certificate');
    await app.listen({ port: config.port, host: config.host });
  }
  const worker = config.role === 'api' ? null : startWorker(ctx);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    await app?.close(); // stops accepting, lets in-flight requests finish
    await worker?.stop();
    await ctx.db.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Hearth failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
