import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';

/** Messages per connection before it is replaced (as nodemailer's own pool does). */
const MESSAGES_PER_CONNECTION = 100;

export interface Envelope {
  from: string;
  to: string;
}

/** How one SMTP transaction ended. */
export type SmtpOutcome =
  | { kind: 'accepted' }
  /** The gate said no before the final dot: nothing was delivered. */
  | { kind: 'withheld' }
  /** The server answered with a code: 4xx try again later, 5xx never. */
  | { kind: 'rejected'; code: number; response: string; afterDot: boolean }
  /** No answer (connection refused, dropped, timed out). */
  | { kind: 'failed'; message: string; afterDot: boolean };

class Withheld extends Error {}

/**
 * The message, then (only once `beforeDot` resolved true) its end: the connection writes the final
 * "." only after the end, so whatever `beforeDot` commits is durable before the server can accept
 * the message.
 */
function gatedMessage(raw: Buffer, beforeDot: () => Promise<boolean>, passedGate: () => void) {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(raw);
        return;
      }
      beforeDot().then(
        (go) => {
          if (!go) return this.destroy(new Withheld('withheld'));
          passedGate();
          this.push(null);
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}

/**
 * A small pool of nodemailer SMTP connections with a messages-per-second cap. Unlike nodemailer's
 * pooled transport it hands the connection a message stream that it reads only after DATA, so the
 * caller can commit "being handed over" right before the final dot.
 */
export class SmtpPool {
  private readonly options: SMTPConnection.Options;
  private readonly auth: SMTPConnection.Credentials | undefined;
  private readonly idle: { conn: SMTPConnection; used: number }[] = [];
  private open = 0;
  private readonly waiting: (() => void)[] = [];
  private nextSlot = 0;
  private closed = false;

  constructor(
    url: string,
    private readonly maxConnections: number,
    private readonly rate: number,
  ) {
    const options = parseConnectionUrl(url);
    this.auth = options.auth as SMTPConnection.Credentials | undefined;
    this.options = { ...options, connectionTimeout: 30_000, socketTimeout: 60_000 };
  }

  /** Sends one message; `beforeDot` runs after the body went out, before the final dot. */
  async send(envelope: Envelope, raw: Buffer, beforeDot: () => Promise<boolean>) {
    await this.throttle();
    const slot = await this.acquire();
    let afterDot = false;
    try {
      const conn = slot.conn ?? (await this.connect());
      const outcome = await new Promise<SmtpOutcome>((resolve) => {
        const message = gatedMessage(raw, beforeDot, () => (afterDot = true));
        conn.send(envelope, message, (err) => {
          if (!err) return resolve({ kind: 'accepted' });
          const smtpErr = err as SMTPConnection.SMTPError;
          if (smtpErr.message === 'withheld' || err instanceof Withheld)
            return resolve({ kind: 'withheld' });
          if (smtpErr.responseCode)
            return resolve({
              kind: 'rejected',
              code: smtpErr.responseCode,
              response: smtpErr.response ?? smtpErr.message,
              afterDot,
            });
          resolve({ kind: 'failed', message: smtpErr.message, afterDot });
        });
      });
      const healthy = outcome.kind === 'accepted';
      this.release(healthy ? { conn, used: slot.used + 1 } : { conn, used: Infinity });
      return outcome;
    } catch (err) {
      this.release({ conn: null, used: Infinity });
      return { kind: 'failed', message: (err as Error).message, afterDot } as SmtpOutcome;
    }
  }

  close(): void {
    this.closed = true;
    for (const { conn } of this.idle.splice(0)) conn.quit();
  }

  private async throttle(): Promise<void> {
    if (this.rate <= 0) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 1000 / this.rate;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  /** A connection slot: an idle connection, or the right to open one (conn null). */
  private async acquire(): Promise<{ conn: SMTPConnection | null; used: number }> {
    for (;;) {
      const ready = this.idle.pop();
      if (ready) return ready;
      if (this.open < this.maxConnections) {
        this.open++;
        return { conn: null, used: 0 };
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(slot: { conn: SMTPConnection | null; used: number }): void {
    if (slot.conn && slot.used < MESSAGES_PER_CONNECTION && !this.closed) {
      this.idle.push(slot as { conn: SMTPConnection; used: number });
    } else {
      slot.conn?.close();
      this.open--;
    }
    this.waiting.shift()?.();
  }

  private connect(): Promise<SMTPConnection> {
    return new Promise((resolve, reject) => {
      const conn = new SMTPConnection(this.options);
      conn.once('error', reject);
      conn.on('error', () => {}); // later errors surface through send()
      conn.connect((err) => {
        if (err) return reject(err);
        // Without TCP_NODELAY the final dot waits for the delayed ACK of the body (~40 ms a message).
        (conn as unknown as { _socket?: { setNoDelay?(on: boolean): void } })._socket?.setNoDelay?.(
          true,
        );
        if (!this.auth) return resolve(conn);
        conn.login(this.auth, (loginErr) => (loginErr ? reject(loginErr) : resolve(conn)));
      });
    });
  }
}
