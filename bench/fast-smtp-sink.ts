// A minimal SMTP sink for benchmarks: answers every command with success and counts the messages
// per recipient, without parsing the message (smtp-server costs more CPU than the sender measured).
import net from 'node:net';

export interface FastSink {
  url: string;
  /** Messages accepted (final dot seen). */
  count(): number;
  /** Recipients that got more than one message. */
  duplicates(): number;
  close(): Promise<void>;
}

export async function startFastSink(): Promise<FastSink> {
  const perRecipient = new Map<string, number>();
  let total = 0;
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let rcpt = '';
    socket.setEncoding('latin1');
    socket.write('220 sink ESMTP\r\n');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      const replies: string[] = [];
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line !== '.') continue;
          inData = false;
          total++;
          perRecipient.set(rcpt, (perRecipient.get(rcpt) ?? 0) + 1);
          replies.push('250 queued');
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') replies.push('250-sink\r\n250 PIPELINING');
        else if (verb === 'RCPT') {
          rcpt = line.slice(8).trim().toLowerCase();
          replies.push('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          replies.push('354 go on');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else replies.push('250 ok');
      }
      if (replies.length) socket.write(`${replies.join('\r\n')}\r\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => total,
    duplicates: () => [...perRecipient.values()].filter((n) => n > 1).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
