import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HOLD_MS, writeWebResponse } from '../../src/assistants/web-bridge.js';

/** What reached the socket, call by call, and when. */
class RecordingResponse extends EventEmitter {
  calls: { call: 'writeHead' | 'write' | 'end'; text: string; at: number }[] = [];
  destroyed = false;
  readonly started = Date.now();
  writeHead(status: number) {
    this.calls.push({ call: 'writeHead', text: String(status), at: Date.now() - this.started });
  }
  write(chunk: Uint8Array) {
    this.calls.push({ call: 'write', text: Buffer.from(chunk).toString(), at: this.#at() });
    return true;
  }
  end(chunk?: Uint8Array) {
    this.calls.push({
      call: 'end',
      text: chunk ? Buffer.from(chunk).toString() : '',
      at: this.#at(),
    });
  }
  #at = () => Date.now() - this.started;
}

/** An event stream whose events come after the given delays (ms), then ends. */
function eventStream(delays: number[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [i, delay] of delays.entries()) {
        if (delay > 0) await sleep(delay);
        controller.enqueue(encoder.encode(`id: ${i}\ndata: ${i}\n\n`));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('MCP answers written to the socket (web-bridge)', () => {
  it('sends a quick answer, its priming event and the end in one write', async () => {
    const res = new RecordingResponse();
    await writeWebResponse(res as unknown as ServerResponse, eventStream([0, 2]));
    assert.deepEqual(
      res.calls.map(({ call, text }) => [call, text]),
      [
        ['writeHead', '200'],
        ['end', 'id: 0\ndata: 0\n\nid: 1\ndata: 1\n\n'],
      ],
    );
  });

  it("lets a slow call's priming event leave before its answer, so a dropped client can resume", async () => {
    const res = new RecordingResponse();
    await writeWebResponse(res as unknown as ServerResponse, eventStream([0, HOLD_MS * 4]));
    const [, primed, ended] = res.calls;
    assert.deepEqual([primed!.call, primed!.text], ['write', 'id: 0\ndata: 0\n\n']);
    assert.ok(primed!.at < HOLD_MS * 3, `priming event sent after ${primed!.at} ms`);
    assert.deepEqual([ended!.call, ended!.text], ['end', 'id: 1\ndata: 1\n\n']);
    assert.equal(res.calls.length, 3);
  });

  it('writes nothing more once the client has gone', async () => {
    const res = new RecordingResponse();
    const writing = writeWebResponse(
      res as unknown as ServerResponse,
      eventStream([0, HOLD_MS * 3]),
    );
    await sleep(HOLD_MS / 4);
    res.destroyed = true;
    res.emit('close');
    await writing;
    assert.deepEqual(
      res.calls.map(({ call }) => call),
      ['writeHead'],
    );
  });
});
