import { after, before } from 'node:test';
import { type TestServer, startServer } from '../../support/server.js';
import { type Receiver, startReceiver, testCa } from './receiver.js';

export interface DeliverySuite {
  /** The suite's server; started in `before`. */
  readonly server: TestServer;
  /** A receiver on `path`, closed with the suite. */
  startReceiver(path?: string): Promise<Receiver>;
}

/**
 * One server for a describe() of signed-delivery tests: the worker runs, private addresses and the
 * test CA are trusted, a delivery times out after 1 s and is retried after 0.2 s and 0.3 s within
 * 2 s, signed under the Hearth-Signature header. Registers the suite's before/after hooks, so call
 * it inside the describe() callback.
 */
export function deliverySuite(): DeliverySuite {
  let server: TestServer | undefined;
  const receivers: Receiver[] = [];
  before(async () => {
    const ca = await testCa();
    server = await startServer({
      worker: true,
      env: {
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: ca.file,
        HEARTH_WEBHOOK_TIMEOUT: '1',
        HEARTH_WEBHOOK_RETRY_SCHEDULE: '0.2,0.3',
        HEARTH_WEBHOOK_RETRY_WINDOW: '2',
        HEARTH_SIGNATURE_HEADER: 'Hearth-Signature',
      },
    });
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the delivery suite server starts in before()');
      return server;
    },
    async startReceiver(path) {
      const receiver = await startReceiver(path);
      receivers.push(receiver);
      return receiver;
    },
  };
}
