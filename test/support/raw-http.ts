import tls from 'node:tls';
import net from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before closing (or before the wait ended). */
  received: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds from connecting to the close (or to the end of the wait). */
  elapsedMs: number;
}

/**
 * Speaks HTTP by hand over TLS (or plain TCP for http:// URLs): sends `chunks` with `gapMs` between
 * them and reports what came back and whether the server closed the connection within `waitMs`.
 * For what a normal client cannot send: broken framing, huge headers, slow bodies.
 */
export function rawExchange(
  url: string,
  chunks: (string | Buffer)[],
  options: { gapMs?: number; waitMs?: number } = {},
): Promise<RawExchange> {
  const { hostname, port, protocol } = new URL(url);
  const started = Date.now();
  const socket =
    protocol === 'https:'
      ? tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false })
      : net.connect({ host: hostname, port: Number(port) });
  return new Promise((resolve) => {
    let received = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 5_000);
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    const ready = protocol === 'https:' ? 'secureConnect' : 'connect';
    socket.once(ready, async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0 && options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
        if (done || socket.destroyed) return;
        socket.write(chunk);
      }
    });
  });
}

/** The JSON bodies of the responses in a raw exchange (Content-Length framed). */
export function responseBodies(received: string): { status: number; body: string }[] {
  const out: { status: number; body: string }[] = [];
  let rest = received;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    out.push({ status: Number(head.slice(9, 12)), body });
    rest = rest.slice(headEnd + 4 + length);
  }
  return out;
}
