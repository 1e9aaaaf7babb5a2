import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { MAX_LANES_PER_HOST } from './lanes.js';
import type { Config } from '../../platform/config.js';
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
const FIXED_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Hearth-Webhooks/1.0' };

/** Ends reading an answer once RESPONSE_KEEP bytes of it are kept. */
class ResponseKept extends Error {}

/** The outcome of an attempt that got an answer. */
function answered(statusCode: number, response: string, latencyMs: number): SendResult {
  const success = statusCode >= 200 && statusCode < 300;
  let error: string | null = null;
  if (!success)
    error =
      statusCode >= 300 && statusCode < 400
        ? `redirect (${statusCode}) not followed`
        : `answered ${statusCode}`;
  return {
    success,
    statusCode,
    latencyMs,
    error,
    response: response.slice(0, RESPONSE_KEEP) || null,
  };
}

class RefusedAddress extends Error {
  code = 'EHEARTH_PRIVATE_ADDRESS';
}

/**
 * Resolves the callback host and hands the socket only addresses that passed the SSRF check, so
 * the connection goes to the very address that was checked (no second resolution to rebind).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((
    hostname: string,
    options: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const allowed = allowPrivate
        ? addresses
        : addresses.filter((a) => forbiddenAddressReason(a.address) === null);
      if (allowed.length === 0) {
        return callback(
          new RefusedAddress(
            `host '${hostname}' resolves to ${addresses.map((a) => a.address).join(', ')}, not a public address`,
          ),
        );
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

  constructor(
    private readonly config: Pick<
      Config,
      'webhookAllowPrivate' | 'webhookCaFile' | 'webhookTimeout' | 'webhookConcurrency'
    >,
  ) {
    this.timeoutMs = config.webhookTimeout * 1000;
    // One secure context for every connection: given `ca` instead, each new TLS connection would
    // parse the whole root store again (most of the CPU a busy worker spent, seen in profiles).
    const secureContext: SecureContext | undefined = config.webhookCaFile
      ? createSecureContext({
          ca: [...rootCertificates, readFileSync(config.webhookCaFile, 'utf8')],
        })
      : undefined;
    this.agent = new Agent({
      // One origin may be several webhooks' lanes (MAX_LANES_PER_HOST), each with its parallel sends.
      connections: Math.max(8, config.webhookConcurrency * MAX_LANES_PER_HOST),
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connectTimeout: this.timeoutMs,
      connect: {
        ...(secureContext ? { secureContext } : {}),
        lookup: guardedLookup(config.webhookAllowPrivate),
      },
    });
  }

  /**
   * One POST, through undici's dispatch handler interface: the answer's first RESPONSE_KEEP bytes
   * are kept as they arrive, with no response stream, async iterator or AbortSignal per delivery
   * (those were a fifth of a busy worker's CPU). The whole attempt has one time limit.
   */
  send(target: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(target);
    const literal = hostOf(url);
    if (!this.config.webhookAllowPrivate && isIP(literal)) {
      const reason = forbiddenAddressReason(literal);
      if (reason)
        return Promise.resolve({
          success: false,
          statusCode: null,
          latencyMs: 0,
          error: `refused: ${reason}`,
          response: null,
        });
    }
    return new Promise<SendResult>((resolve) => {
      let statusCode: number | null = null;
      let response = '';
      let timedOut = false;
      let controller: Dispatcher.DispatchController | null = null;
      const timer = setTimeout(() => {
        timedOut = true;
        // Not started yet (waiting for a connection): the attempt ends now, and the request is
        // aborted if it ever starts.
        if (controller) controller.abort(new Error('timed out'));
        else finish(new Error('timed out'));
      }, this.timeoutMs);
      let finished = false;
      const finish = (error: Error | null) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        resolve(
          error
            ? this.failure(error, timedOut, elapsed())
            : answered(statusCode!, response, elapsed()),
        );
      };
      this.agent.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...FIXED_HEADERS, ...headers },
          body,
        },
        {
          onRequestStart(c) {
            controller = c;
            // The time limit may have passed while the request waited for a connection.
            if (timedOut) c.abort(new Error('timed out'));
          },
          onResponseStart(_c, status) {
            statusCode = status;
          },
          onResponseData(c, chunk) {
            response += chunk.toString('utf8');
            // Enough for the attempt log: stop reading (the status already decided the outcome).
            if (response.length > RESPONSE_KEEP) {
              c.abort(new ResponseKept());
            }
          },
          onResponseEnd() {
            finish(null);
          },
          onResponseError(_c, err) {
            finish(err instanceof ResponseKept && statusCode !== null ? null : err);
          },
        },
      );
    });
  }

  private failure(err: Error, timedOut: boolean, latencyMs: number): SendResult {
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const timeout =
      timedOut ||
      e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      e.code === 'UND_ERR_BODY_TIMEOUT' ||
      e.code === 'UND_ERR_CONNECT_TIMEOUT';
    const cause = e.cause ?? e;
    const error = timeout
      ? `timed out after ${this.config.webhookTimeout}s`
      : cause instanceof RefusedAddress
        ? `refused: ${cause.message}`
        : `${cause.code ? `${cause.code}: ` : ''}${cause.message}`;
    return {
      success: false,
      statusCode: null,
      latencyMs,
      error: error.slice(0, 500),
      response: null,
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
