import type { Readable } from 'node:stream';

/**
 * The messages of an mbox file (Gmail Takeout, Thunderbird), one at a time: each starts at a
 * "From " line; mboxrd's ">From " escapes lose one ">". A message over `maxBytes` is answered as
 * its size alone, without its bytes kept.
 */
export class MboxTooLarge extends Error {}

export async function* mboxMessages(
  body: Readable,
  maxBytes: number,
  maxTotal: number,
): AsyncGenerator<Buffer | { tooLarge: number }> {
  let total = 0;
  let pending: Buffer = Buffer.alloc(0);
  let lines: Buffer[] = [];
  let size = 0;
  let started = false;
  const finish = () => {
    const message = size > maxBytes ? { tooLarge: size } : Buffer.concat(lines);
    lines = [];
    size = 0;
    return message;
  };
  const take = (line: Buffer) => {
    if (line.subarray(0, 5).toString('latin1') === 'From ') {
      const previous = started ? finish() : null;
      started = true;
      return previous;
    }
    if (!started) return null;
    const unescaped = /^>+From /.test(line.subarray(0, 64).toString('latin1'))
      ? line.subarray(1)
      : line;
    size += unescaped.length;
    if (size <= maxBytes) lines.push(unescaped);
    return null;
  };
  for await (const chunk of body) {
    // A streamed body is not held to the route's bodyLimit by Fastify: counted here.
    total += (chunk as Buffer).length;
    if (total > maxTotal) throw new MboxTooLarge(`The file is larger than ${maxTotal} bytes`);
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl >= 0; nl = pending.indexOf(10, start)) {
      const done = take(pending.subarray(start, nl + 1));
      start = nl + 1;
      if (done) yield done;
    }
    pending = pending.subarray(start);
  }
  if (pending.length) take(pending);
  if (started) yield finish();
}
