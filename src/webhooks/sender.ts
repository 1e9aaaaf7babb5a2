import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Config } from '../config.js';
import { forbiddenAddressReason, hostOf } from './address-guard.js';

export interface SendResult {
  success: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** the first bytes of the answer, for the attempt log */
  response: string | null;
}

const RESPONSE_KEEP = 1024;

class RefusedAddress extends Error {
  code = 'EHEARTH_PRIVATE_ADDRESS';
}

/**
 * Resolves the callback host and hands the socket only addresses that passed the SSRF check, so
 * the connection goes to the very address that was checked (no second resolution to rebind).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const allowed = allowPrivate ? addresses : addresses.filter((a) => forbiddenAddressReason(a.address) === null);
      if (allowed.length === 0) {
        return callback(new RefusedAddress(`host '${hostname}' resolves to ${addresses.map((a) => a.address).join(', ')}, not a public address`));
      }
      if (options?.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  }) as unknown as LookupFunction;
}

/** POSTs deliveries: keep-alive HTTPS, no redirects, a hard time limit, optional extra CA. */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(private readonly config: Pick<Config, 'webhookAllowPrivate' | 'webhookCaFile' | 'webhookTimeout'>) {
    this.timeoutMs = config.webhookTimeout * 1000;
    const ca = config.webhookCaFile ? [...rootCertificates, readFileSync(config.webhookCaFile, 'utf8')] : undefined;
    this.agent = new Agent({
      connections: 8,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connectTimeout: this.timeoutMs,
      connect: { ...(ca ? { ca } : {}), lookup: guardedLookup(config.webhookAllowPrivate) },
    });
  }

  async send(target: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(target);
    const literal = hostOf(url);
    if (!this.config.webhookAllowPrivate && isIP(literal)) {
      const reason = forbiddenAddressReason(literal);
      if (reason) return { success: false, statusCode: null, latencyMs: 0, error: `refused: ${reason}`, response: null };
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Hearth-Webhooks/1.0', ...headers },
        body,
        dispatcher: this.agent,
        signal,
      });
      const statusCode = res.statusCode;
      let response = '';
      try {
        for await (const piece of res.body) {
          response += (piece as Buffer).toString('utf8');
          if (response.length > RESPONSE_KEEP) {
            res.body.destroy();
            break;
          }
        }
      } catch {
        /* the status already decided the outcome */
      }
      const success = statusCode >= 200 && statusCode < 300;
      let error: string | null = null;
      if (!success) error = statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`;
      return { success, statusCode, latencyMs: elapsed(), error, response: response.slice(0, RESPONSE_KEEP) || null };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error & { code?: string } };
      const timedOut = signal.aborted || e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT';
      const cause = e.cause ?? e;
      const error = timedOut
        ? `timed out after ${this.config.webhookTimeout}s`
        : cause instanceof RefusedAddress
          ? `refused: ${cause.message}`
          : `${cause.code ? `${cause.code}: ` : ''}${cause.message}`;
      return { success: false, statusCode: null, latencyMs: elapsed(), error: error.slice(0, 500), response: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
