// A worker thread that decodes messages (mailparser) and finds their lead, off the event loop
// that answers the API and the SMTP listener (parse-pool.ts sends it the raw bytes).
import { parentPort } from 'node:worker_threads';
import { readMail } from './mime.js';
import { decodedLead } from './decoded.js';
import type { ParseRequest, ParseResponse } from './parse-pool.js';

parentPort!.on('message', ({ id, raw }: ParseRequest) => {
  void (async (): Promise<ParseResponse> => {
    try {
      const mail = await readMail(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
      return { id, ...(await decodedLead(mail)) };
    } catch (err) {
      return { id, error: (err as Error).message || String(err) };
    }
  })().then((response) => parentPort!.postMessage(response));
});
