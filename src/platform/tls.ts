import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { ensurePrivateDir } from './private-files.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** Set when Hearth made the certificate itself: where it lives. */
  generatedAt: string | null;
}

/**
 * The operator's PEM files when configured, otherwise a self-signed certificate for localhost and
 * 127.0.0.1, generated offline once into the data dir and reused on every start.
 */
export async function loadTls(config: Config): Promise<TlsMaterial> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    return {
      cert: readFileSync(config.tlsCertFile, 'utf8'),
      key: readFileSync(config.tlsKeyFile, 'utf8'),
      generatedAt: null,
    };
  }
  const certFile = path.join(config.dataDir, 'tls-cert.pem');
  const keyFile = path.join(config.dataDir, 'tls-key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    ensurePrivateDir(config.dataDir);
    const now = Date.now();
    // Loaded here, not at start: it is needed once per data dir, and costs 0.2 s of CPU to load.
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 60_000),
      notAfterDate: new Date(now + 825 * 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    writeFileSync(keyFile, pems.private, { mode: 0o600 });
    writeFileSync(certFile, pems.cert);
  }
  return {
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    generatedAt: certFile,
  };
}
