import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * The MCP transport speaks Web Requests and Responses (so that a session can be rebuilt on any
 * instance from a made-up initialize request); these convert Fastify's request and write the
 * answer, streaming an event stream as it comes.
 */
/**
 * The headers the transport reads. Hearth checks the origin itself (mcp.routes.ts) and hands the
 * caller over as authInfo, so the rest are not copied (a client's ten headers made the Request
 * in 6.5 µs, these five in 4.5 µs).
 */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];

export function webRequestOf(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The body was parsed by Fastify (and its size limit) and is handed over as parsedBody.
  return new Request(new URL(request.url, publicUrl), { method: request.method, headers });
}

/**
 * How long chunks of an event stream wait to leave together. A tool call's answer usually follows
 * its stream's priming event within a millisecond or two; sent as they come, the headers, the
 * priming event, the answer and the stream's end are four TLS writes, each a system call and a
 * record to encrypt. Held this long they leave as one. A longer call's priming event still leaves
 * after HOLD_MS, so a client whose connection drops can resume (MCP Streamable HTTP).
 */
export const HOLD_MS = 20;

export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The client went away: cancelling lets the transport drop the stream (a resume may follow).
  res.on('close', () => void reader.cancel().catch(() => undefined));
  const held: Uint8Array[] = [];
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    const chunk = held.length === 1 ? held[0] : Buffer.concat(held);
    held.length = 0;
    return chunk;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      held.push(value);
      timer ??= setTimeout(() => res.destroyed || res.write(release()), HOLD_MS);
    }
  } catch {
    // the stream was cancelled because the client went away
  } finally {
    if (res.destroyed) clearTimeout(timer);
    else res.end(held.length > 0 ? release() : undefined);
  }
}
