// Factories for the suites: each makes one record through the public API as the given key's user,
// asserts it was created, and returns the API's answer. Defaults are unique where the API needs it;
// `fields` override or extend them.
import assert from 'node:assert/strict';
import type { TestAccount, TestServer, TestUser } from './server.js';

type Fields = Record<string, unknown>;
// Records are what the API answered: tests read whichever fields they assert on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Record_ = { id: number } & Record<string, any>;

async function created(server: TestServer, key: string, path: string, body: Fields) {
  const res = await server.post(key, path, body);
  assert.equal(res.status, 201, `POST ${path}: ${res.status} ${res.text}`);
  return res.body as Record_;
}

/** An account with its Owner and, by role, the users a suite asks for. */
export async function buildAccount(
  server: TestServer,
  roles: { agents?: number; admins?: number; lenders?: number } = {},
): Promise<TestAccount & { agents: TestUser[]; admins: TestUser[]; lenders: TestUser[] }> {
  const account = await server.newAccount();
  const add = async (role: 'Agent' | 'Admin' | 'Lender', n = 0) => {
    const users: TestUser[] = [];
    for (let i = 0; i < n; i++) users.push(await account.addUser(role));
    return users;
  };
  return {
    ...account,
    agents: await add('Agent', roles.agents),
    admins: await add('Admin', roles.admins),
    lenders: await add('Lender', roles.lenders),
  };
}

/** A person (POST /v1/people): a unique name and email unless `fields` say otherwise. */
export async function buildPerson(server: TestServer, key: string, fields: Fields = {}) {
  return server.newPerson(key, fields);
}

export function buildNote(server: TestServer, key: string, personId: number, fields: Fields = {}) {
  return created(server, key, '/v1/notes', { personId, body: 'A note', ...fields });
}

export function buildTask(server: TestServer, key: string, personId: number, fields: Fields = {}) {
  return created(server, key, '/v1/tasks', { personId, name: 'Call back', ...fields });
}

export function buildCall(server: TestServer, key: string, personId: number, fields: Fields = {}) {
  return created(server, key, '/v1/calls', { personId, isIncoming: false, ...fields });
}

export function buildDeal(server: TestServer, key: string, stageId: number, fields: Fields = {}) {
  return created(server, key, '/v1/deals', { name: 'A deal', stageId, ...fields });
}

/** A pipeline with the given stages (names, or stage bodies), in order. */
export function buildPipeline(
  server: TestServer,
  key: string,
  stages: (string | Fields)[] = ['Open', 'Closed'],
  fields: Fields = {},
) {
  return created(server, key, '/v1/pipelines', {
    name: 'Pipeline',
    stages: stages.map((stage) => (typeof stage === 'string' ? { name: stage } : stage)),
    ...fields,
  });
}

/** An account with two Agents and a person assigned to the first: where timeline suites start. */
export async function buildAgentsWithPerson(server: TestServer, fields: Fields = {}) {
  const account = await server.newAccount();
  const agentA = await account.addUser('Agent');
  const agentB = await account.addUser('Agent');
  const person = await buildPerson(server, account.owner.key, {
    assignedUserId: agentA.id,
    ...fields,
  });
  return { account, agentA, agentB, personId: person.id };
}
