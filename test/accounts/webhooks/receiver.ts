import { createServer, type Server } from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { generate } from 'selfsigned';
import { eventually as pollUntil } from '../../support/eventually.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  at: number;
}

export interface TestCa {
  cert: string;
  key: string;
  /** a PEM file to pass as HEARTH_WEBHOOK_CA */
  file: string;
  leaf: { cert: string; key: string };
}

let shared: Promise<TestCa> | null = null;

/** A throwaway CA and a leaf for 127.0.0.1/localhost it signed, made offline once per test file. */
export function testCa(): Promise<TestCa> {
  shared ??= (async () => {
    const now = Date.now();
    const ca = await generate([{ name: 'commonName', value: 'Hearth Test CA' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 60_000),
      notAfterDate: new Date(now + 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        {
          name: 'keyUsage',
          keyCertSign: true,
          cRLSign: true,
          digitalSignature: true,
          critical: true,
        },
      ],
    });
    const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 60_000),
      notAfterDate: new Date(now + 86_400_000),
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'hearth-ca-')), 'ca.pem');
    writeFileSync(file, ca.cert);
    return { cert: ca.cert, key: ca.private, file, leaf: { cert: leaf.cert, key: leaf.private } };
  })();
  return shared;
}

export type Responder = (req: Received, res: ServerResponse) => unknown;

export interface Receiver {
  url: string;
  received: Received[];
  /** changes how the next requests are answered (default: 200) */
  respond(fn: Responder): void;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTPS callback endpoint on 127.0.0.1, with a certificate from the test CA. */
export async function startReceiver(pathname = '/hook'): Promise<Receiver> {
  const ca = await testCa();
  const received: Received[] = [];
  let responder: Responder = (_r, res) => {
    res.writeHead(200).end('ok');
  };
  const waiters: (() => void)[] = [];
  const server: Server = createServer({ key: ca.leaf.key, cert: ca.leaf.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* keep null */
      }
      const entry = { headers: req.headers, body, json, at: Date.now() };
      received.push(entry);
      for (const w of waiters.splice(0)) w();
      void Promise.resolve(responder(entry, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}${pathname}`,
    received,
    respond(fn) {
      responder = fn;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`receiver got ${received.length} deliveries, expected ${count}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return received;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until `check` returns a truthy value or the time is up (test/support/eventually.ts). */
export function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  return pollUntil(what, check, timeoutMs);
}

/** A clock the test moves by hand. */
export function movableClock(start = Date.now()) {
  let offset = start - Date.now();
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}
