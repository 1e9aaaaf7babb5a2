import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from '../support/server.js';
import { eventually } from '../support/eventually.js';

/** Requests as a registered system makes them (automations need one with an API key). */
export function systemClient(server: TestServer, system: { name: string; key: string }) {
  const headers = { 'X-System': system.name, 'X-System-Key': system.key };
  return {
    get: (key: string, path: string) => server.get(key, path, headers),
    post: (key: string, path: string, body: unknown) => server.post(key, path, body, headers),
    put: (key: string, path: string, body: unknown) => server.put(key, path, body, headers),
    del: (key: string, path: string) => server.del(key, path, headers),
  };
}

export type SystemClient = ReturnType<typeof systemClient>;

export async function createAutomation(
  client: SystemClient,
  key: string,
  body: Record<string, unknown>,
): Promise<number> {
  const res: ApiResponse = await client.post(key, '/v1/automations', { name: 'Test', ...body });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** The runs of a person, as the API lists them. */
export async function runsOf(client: SystemClient, key: string, personId: number) {
  const res = await client.get(key, `/v1/automationsPeople?personId=${personId}&limit=100`);
  assert.equal(res.status, 200, res.text);
  return res.body.automationspeople as { id: number; status: string; automationId: number }[];
}

/** Waits until the person has `count` runs, all Completed. */
export async function completedRuns(
  client: SystemClient,
  key: string,
  personId: number,
  count = 1,
) {
  return eventually(
    `${count} completed runs of person ${personId}`,
    async () => {
      const runs = await runsOf(client, key, personId);
      return runs.length === count && runs.every((r) => r.status === 'Completed') ? runs : null;
    },
    30_000,
  );
}

export async function tasksOf(server: TestServer, key: string, personId: number) {
  const res = await server.get(key, `/v1/tasks?personId=${personId}&limit=100`);
  assert.equal(res.status, 200, res.text);
  return res.body.tasks as { name: string; type: string; assignedUserId: number | null }[];
}

export async function personOf(server: TestServer, key: string, personId: number) {
  const res = await server.get(key, `/v1/people/${personId}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}
