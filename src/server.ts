import { ConfigError, loadConfig } from './platform/config.js';
import { closeContext, createContext, createLogger, ensureFirstOwner } from './app/bootstrap.js';
import { startWorker } from './worker.js';
import type { AppContext } from './platform/context.js';

/**
 * The HTTP side, loaded only by a process that serves it: a worker (HEARTH_ROLE=worker) never
 * imports Fastify, the routes, the API reference or the web app's files (~40 MB of its memory).
 */
async function startApi(ctx: AppContext) {
  const [{ buildApp }, { loadTls }] = await Promise.all([
    import('./app/app.js'),
    import('./platform/tls.js'),
  ]);
  return buildApp(ctx, ctx.config.trustProxy ? {} : { https: await loadTls(ctx.config) });
}

async function startInbound(ctx: AppContext) {
  const [{ startInboundListener }, { loadTls }] = await Promise.all([
    import('./leads/inboundEmail/smtp.js'),
    import('./platform/tls.js'),
  ]);
  const listener = await startInboundListener(ctx, await loadTls(ctx.config));
  ctx.log.info({ port: listener.port }, 'lead mail SMTP listener started');
  return listener;
}

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

  const firstOwner = await ensureFirstOwner(ctx);
  if (firstOwner) {
    process.stdout.write(
      `\nFirst start: created account "My Team" and its owner (${firstOwner.email}).\n` +
        `Owner API key (shown once, also saved to ${config.dataDir}/owner-api-key):\n\n  ${firstOwner.apiKey}\n\n` +
        `Choose the owner's password in the browser (one-time link, valid 7 days, also saved to ${config.dataDir}/setup-link):\n\n  ${firstOwner.setupLink}\n\n`,
    );
  }

  const app = config.role === 'worker' ? null : await startApi(ctx);
  if (app) {
    if (!config.trustProxy && !config.tlsCertFile)
      log.info({ cert: `${config.dataDir}/tls-cert.pem` }, 'using a self-signed certificate');
    await app.listen({ port: config.port, host: config.host });
  }
  const worker = config.role === 'api' ? null : startWorker(ctx);
  // The lead mail listener runs beside the API (never in a worker-only process); any worker parses.
  const inbound =
    config.role !== 'worker' && config.inbound.smtpPort !== null ? await startInbound(ctx) : null;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    await inbound?.close();
    await app?.close(); // stops accepting, lets in-flight requests finish
    await worker?.stop();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(
    `Hearth failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
