import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from '../support/server.js';

/** POSTs a CSV body to /v1/imports. */
export function upload(
  server: TestServer,
  key: string,
  body: string | Buffer,
  query = '',
  contentType = 'text/csv',
): Promise<ApiResponse> {
  return server.call('POST', `/v1/imports${query}`, { key, raw: body, contentType });
}

/** Polls the import until it is done or failed. */
export async function waitForImport(
  server: TestServer,
  key: string,
  id: number,
  timeoutMs = 60_000,
): Promise<ApiResponse['body']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.get(key, `/v1/imports/${id}`);
    assert.equal(res.status, 200, res.text);
    if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Uploads and waits: the finished import. */
export async function importCsv(
  server: TestServer,
  key: string,
  body: string | Buffer,
  query = '',
): Promise<ApiResponse['body']> {
  const res = await upload(server, key, body, query);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.status, 'queued');
  return waitForImport(server, key, res.body.id);
}

/** Polls until the undo has removed what it will. */
export async function waitForUndo(server: TestServer, key: string, id: number) {
  for (let i = 0; i < 600; i++) {
    const res = await server.get(key, `/v1/imports/${id}`);
    if (res.body.undo?.status === 'done') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`undo of import ${id} did not finish`);
}

/** Every person the key can see, by first name order of creation. */
export async function allPeople(server: TestServer, key: string) {
  const res = await server.get(key, '/v1/people/export?format=jsonl');
  assert.equal(res.status, 200, res.text);
  return res.text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
