import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { startServer, type TestAccount, type TestServer, unique } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';
import { openDatabase } from '../../src/platform/db/connect.js';
import { dialectOf } from '../../src/platform/db/dialect.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { hashSecret, newSecret } from '../../src/accounts/keys.js';

interface LabelOut {
  id: number;
  name: string;
  orderWeight: number;
  created: string;
  updated: string;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const KINDS = [
  {
    path: '/v1/appointmentTypes',
    collection: 'appointmenttypes',
    assign: 'assignTypeId',
    field: 'typeId',
    noun: 'appointment type',
    defaults: ['Buyer Consultation', 'Listing Appointment', 'Showing', 'Closing', 'Other'],
  },
  {
    path: '/v1/appointmentOutcomes',
    collection: 'appointmentoutcomes',
    assign: 'assignOutcomeId',
    field: 'outcomeId',
    noun: 'appointment outcome',
    defaults: ['Met', 'No Show', 'Rescheduled', 'Canceled'],
  },
] as const;

const slot = { start: '2026-05-01T15:00:00Z', end: '2026-05-01T16:00:00Z' };

describe('appointment types and outcomes', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  for (const kind of KINDS) {
    describe(kind.path, () => {
      async function list(key: string, query = 'limit=100'): Promise<LabelOut[]> {
        const res = await server.get(key, `${kind.path}?${query}`);
        assert.equal(res.status, 200, res.text);
        return res.body[kind.collection];
      }
      const named = (all: LabelOut[], name: string) => all.find((l) => l.name === name)!;
      const appointment = async (account: TestAccount, extra: Record<string, unknown>) => {
        const res = await server.post(account.owner.key, '/v1/appointments', {
          title: unique('Meeting'),
          ...slot,
          ...extra,
        });
        assert.equal(res.status, 201, res.text);
        return res.body as Record<string, unknown> & { id: number };
      };

      it(`lists the account's defaults by orderWeight under the ${kind.collection} key; ?id=, name, sort and paging work`, async () => {
        const { owner } = await server.newAccount();
        const res = await server.get(owner.key, `${kind.path}?limit=100`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body._metadata.collection, kind.collection);
        assert.equal(res.body._metadata.total, kind.defaults.length);
        assert.deepEqual(Object.keys(res.body).sort(), ['_metadata', kind.collection].sort());
        const all: LabelOut[] = res.body[kind.collection];
        assert.deepEqual(
          all.map((l) => l.name),
          kind.defaults,
        );
        assert.deepEqual(
          all.map((l) => l.orderWeight),
          kind.defaults.map((_, i) => (i + 1) * 10),
        );
        for (const l of all) {
          assert.match(l.created, ISO);
          assert.match(l.updated, ISO);
        }

        const byId = await server.get(owner.key, `${kind.path}?id=${all[1].id},${all[0].id}`);
        assert.deepEqual(
          byId.body[kind.collection].map((l: LabelOut) => l.id),
          [all[0].id, all[1].id],
        );
        assert.equal(byId.body._metadata.total, 2);
        const byName = await server.get(
          owner.key,
          `${kind.path}?name=${encodeURIComponent(kind.defaults[2])}`,
        );
        assert.deepEqual(
          byName.body[kind.collection].map((l: LabelOut) => l.id),
          [all[2].id],
        );
        const sorted = await list(owner.key, 'sort=-name&limit=100');
        assert.deepEqual(
          sorted.map((l) => l.name),
          [...kind.defaults].sort().reverse(),
        );

        const first = await server.get(owner.key, `${kind.path}?limit=2`);
        assert.deepEqual(
          first.body[kind.collection].map((l: LabelOut) => l.name),
          kind.defaults.slice(0, 2),
        );
        assert.ok(first.body._metadata.nextLink.startsWith(`https://hearth.test${kind.path}?`));
        const second = await server.call(
          'GET',
          first.body._metadata.nextLink.replace('https://hearth.test', ''),
          { key: owner.key },
        );
        assert.equal(second.status, 200, second.text);
        assert.deepEqual(
          second.body[kind.collection].map((l: LabelOut) => l.name),
          kind.defaults.slice(2, 4),
        );
      });

      it('creates, reads, renames, reorders and deletes', async () => {
        const account = await server.newAccount();
        const key = account.owner.key;
        const created = await server.post(key, kind.path, { name: '  Video Call  ' });
        assert.equal(created.status, 201, created.text);
        assert.deepEqual(Object.keys(created.body).sort(), [
          'created',
          'id',
          'name',
          'orderWeight',
          'updated',
        ]);
        assert.equal(created.body.name, 'Video Call');
        assert.equal(
          created.body.orderWeight,
          (kind.defaults.length + 1) * 10,
          'no orderWeight: last',
        );
        assert.match(created.body.created, ISO);
        assert.match(created.body.updated, ISO);

        const got = await server.get(key, `${kind.path}/${created.body.id}`);
        assert.equal(got.status, 200);
        assert.deepEqual(got.body, created.body);

        // Asking for weight 20 takes the place of the record there; the list is renumbered.
        const first = await server.post(key, kind.path, {
          name: 'Second Place',
          orderWeight: '20',
        });
        assert.equal(first.status, 201, first.text);
        assert.equal(first.body.orderWeight, 20);
        const after = await list(key);
        assert.deepEqual(
          after.map((l) => l.name),
          [kind.defaults[0], 'Second Place', ...kind.defaults.slice(1), 'Video Call'],
        );
        assert.deepEqual(
          after.map((l) => l.orderWeight),
          after.map((_, i) => (i + 1) * 10),
        );

        const renamed = await server.put(key, `${kind.path}/${created.body.id}`, {
          name: 'Zoom',
          orderWeight: 10,
        });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal(renamed.body.name, 'Zoom');
        assert.equal(renamed.body.orderWeight, 10);
        assert.equal((await list(key))[0].name, 'Zoom');
        const unchanged = await server.put(key, `${kind.path}/${created.body.id}`, {});
        assert.equal(unchanged.status, 200, unchanged.text);
        assert.equal(unchanged.body.name, 'Zoom');

        const deleted = await server.del(key, `${kind.path}/${created.body.id}`);
        assert.equal(deleted.status, 204, deleted.text);
        assert.equal((await server.get(key, `${kind.path}/${created.body.id}`)).status, 404);
        assert.equal((await server.del(key, `${kind.path}/${created.body.id}`)).status, 404);
        assert.equal(
          (await server.put(key, `${kind.path}/${created.body.id}`, { name: 'Back' })).status,
          404,
        );
        assert.ok(!(await list(key)).some((l) => l.name === 'Zoom'));
      });

      it('refuses a duplicate name in the account with 409, also on rename; other accounts may reuse it', async () => {
        const a = await server.newAccount();
        const b = await server.newAccount();
        const dup = await server.post(a.owner.key, kind.path, { name: kind.defaults[0] });
        assert.equal(dup.status, 409, dup.text);
        assert.match(dup.body.errorMessage, new RegExp(`'${kind.defaults[0]}' already exists`));
        const padded = await server.post(a.owner.key, kind.path, { name: ` ${kind.defaults[1]} ` });
        assert.equal(padded.status, 409);
        const mine = await server.post(a.owner.key, kind.path, { name: 'Unique Here' });
        assert.equal(mine.status, 201);
        const rename = await server.put(a.owner.key, `${kind.path}/${mine.body.id}`, {
          name: kind.defaults[0],
        });
        assert.equal(rename.status, 409, rename.text);
        assert.equal(
          (await server.get(a.owner.key, `${kind.path}/${mine.body.id}`)).body.name,
          'Unique Here',
        );
        const sameName = await server.put(a.owner.key, `${kind.path}/${mine.body.id}`, {
          name: 'Unique Here',
        });
        assert.equal(sameName.status, 200, 'keeping its own name is no conflict');
        assert.equal(
          (await server.post(b.owner.key, kind.path, { name: 'Unique Here' })).status,
          201,
        );
      });

      it('lets every role read, only Owner and Admin write (Agent and Lender 403)', async () => {
        const account = await server.newAccount();
        const admin = await account.addUser('Admin');
        const agent = await account.addUser('Agent');
        const lender = await account.addUser('Lender');
        const target = named(await list(account.owner.key), kind.defaults[0]);
        for (const user of [admin, agent, lender]) {
          assert.deepEqual(
            (await list(user.key)).map((l) => l.name),
            kind.defaults,
          );
          assert.equal((await server.get(user.key, `${kind.path}/${target.id}`)).status, 200);
        }
        for (const user of [agent, lender]) {
          const post = await server.post(user.key, kind.path, { name: 'Nope' });
          assert.equal(post.status, 403, post.text);
          assert.match(post.body.errorMessage, /Owner or Admin/);
          assert.equal(
            (await server.put(user.key, `${kind.path}/${target.id}`, { name: 'Nope' })).status,
            403,
          );
          assert.equal((await server.del(user.key, `${kind.path}/${target.id}`)).status, 403);
        }
        assert.equal(
          (await server.get(account.owner.key, `${kind.path}/${target.id}`)).body.name,
          kind.defaults[0],
        );

        const made = await server.post(admin.key, kind.path, { name: 'By Admin' });
        assert.equal(made.status, 201, made.text);
        assert.equal(
          (await server.put(admin.key, `${kind.path}/${made.body.id}`, { name: 'By Admin 2' })).body
            .name,
          'By Admin 2',
        );
        assert.equal((await server.del(admin.key, `${kind.path}/${made.body.id}`)).status, 204);
        assert.equal((await server.call('GET', kind.path)).status, 401);
      });

      it("answers 404 for another account's records and never lists them", async () => {
        const a = await server.newAccount();
        const b = await server.newAccount();
        const theirs = await server.post(b.owner.key, kind.path, { name: 'Private' });
        assert.equal(theirs.status, 201);
        const id = theirs.body.id;
        assert.equal((await server.get(a.owner.key, `${kind.path}/${id}`)).status, 404);
        assert.equal(
          (await server.put(a.owner.key, `${kind.path}/${id}`, { name: 'Mine now' })).status,
          404,
        );
        assert.equal((await server.del(a.owner.key, `${kind.path}/${id}`)).status, 404);
        const listed = await server.get(a.owner.key, `${kind.path}?id=${id}`);
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.body[kind.collection], []);
        assert.equal((await server.get(b.owner.key, `${kind.path}/${id}`)).body.name, 'Private');
      });

      it(`refuses to delete a record in use without ${kind.assign}, and moves its appointments with it (query form)`, async () => {
        const account = await server.newAccount();
        const key = account.owner.key;
        const all = await list(key);
        const doomed = named(all, kind.defaults[0]);
        const heir = named(all, kind.defaults[1]);
        const a1 = await appointment(account, { [kind.field]: doomed.id });
        const a2 = await appointment(account, { [kind.field]: doomed.id });
        const other = await appointment(account, { [kind.field]: heir.id });

        const refused = await server.del(key, `${kind.path}/${doomed.id}`);
        assert.equal(refused.status, 400, refused.text);
        assert.match(
          refused.body.errorMessage,
          new RegExp(`used by 2 appointments; pass ${kind.assign}`),
        );
        assert.equal(
          (await server.get(key, `${kind.path}/${doomed.id}`)).status,
          200,
          'still there',
        );

        const self = await server.del(key, `${kind.path}/${doomed.id}?${kind.assign}=${doomed.id}`);
        assert.equal(self.status, 400);
        assert.match(self.body.errorMessage, new RegExp(kind.assign));
        const unknown = await server.del(key, `${kind.path}/${doomed.id}?${kind.assign}=999999999`);
        assert.equal(unknown.status, 400);
        assert.match(
          unknown.body.errorMessage,
          new RegExp(`${kind.assign}: no ${kind.noun} 999999999`),
        );
        const foreign = (
          await server.get((await server.newAccount()).owner.key, `${kind.path}?limit=1`)
        ).body[kind.collection][0];
        const elsewhere = await server.del(
          key,
          `${kind.path}/${doomed.id}?${kind.assign}=${foreign.id}`,
        );
        assert.equal(elsewhere.status, 400, "another account's record is no target");

        const outbox = await outboxOf(server, account.accountId);
        const moved = await server.del(key, `${kind.path}/${doomed.id}?${kind.assign}=${heir.id}`);
        assert.equal(moved.status, 204, moved.text);
        assert.equal((await server.get(key, `${kind.path}/${doomed.id}`)).status, 404);
        for (const a of [a1, a2, other]) {
          const got = await server.get(key, `/v1/appointments/${a.id}`);
          assert.equal(got.body[kind.field], heir.id);
        }
        assert.deepEqual(await outbox.take(), [
          { event: 'appointmentsUpdated', resourceIds: [a1.id, a2.id], data: null },
        ]);
      });

      it(`accepts ${kind.assign} in the body (numeric string too), refuses a query and body that disagree, and deletes an unused record without it`, async () => {
        const account = await server.newAccount();
        const key = account.owner.key;
        const all = await list(key);
        const doomed = named(all, kind.defaults[2]);
        const heir = named(all, kind.defaults[3]);
        const a = await appointment(account, { [kind.field]: doomed.id });

        const disagree = await server.call(
          'DELETE',
          `${kind.path}/${doomed.id}?${kind.assign}=${heir.id}`,
          { key, body: { [kind.assign]: all[0].id } },
        );
        assert.equal(disagree.status, 400);
        assert.match(disagree.body.errorMessage, /differs between the query and the body/);
        const stray = await server.call('DELETE', `${kind.path}/${doomed.id}`, {
          key,
          body: { assignStageId: heir.id },
        });
        assert.equal(stray.status, 400);
        assert.match(
          stray.body.errorMessage,
          /Invalid fields in the request body: assignStageId\./,
        );

        const res = await server.call('DELETE', `${kind.path}/${doomed.id}`, {
          key,
          body: { [kind.assign]: String(heir.id) },
        });
        assert.equal(res.status, 204, res.text);
        assert.equal((await server.get(key, `/v1/appointments/${a.id}`)).body[kind.field], heir.id);

        const form = await server.post(key, kind.path, { name: 'Form Target' });
        const formDoomed = await server.post(key, kind.path, { name: 'Form Doomed' });
        const b = await appointment(account, { [kind.field]: formDoomed.body.id });
        const formDelete = await server.call('DELETE', `${kind.path}/${formDoomed.body.id}`, {
          key,
          raw: `${kind.assign}=${form.body.id}`,
          contentType: 'application/x-www-form-urlencoded',
        });
        assert.equal(formDelete.status, 204, formDelete.text);
        assert.equal(
          (await server.get(key, `/v1/appointments/${b.id}`)).body[kind.field],
          form.body.id,
        );

        const unused = named(all, kind.defaults[0]);
        const plain = await server.del(key, `${kind.path}/${unused.id}`);
        assert.equal(plain.status, 204, plain.text);
        assert.equal((await server.get(key, `${kind.path}/${unused.id}`)).status, 404);
      });

      it('answers bad input with 400 and an errorMessage, never 500', async () => {
        const { owner } = await server.newAccount();
        const some = (await list(owner.key))[0];
        const cases: [string, string, unknown?][] = [
          ['POST', kind.path, {}],
          ['POST', kind.path, { name: '' }],
          ['POST', kind.path, { name: '   ' }],
          ['POST', kind.path, { name: 'x'.repeat(101) }],
          ['POST', kind.path, { name: 'Fine', color: 'red' }],
          ['POST', kind.path, { name: 'Fine', orderWeight: 'first' }],
          ['POST', kind.path, { name: 'Fine', orderWeight: 1.5 }],
          ['POST', kind.path, { name: ['a', 'b'] }],
          ['POST', kind.path, { name: 'Nul \u0000 here' }],
          ['PUT', `${kind.path}/${some.id}`, { name: null }],
          ['PUT', `${kind.path}/${some.id}`, { orderWeight: 10_000_000 }],
          ['GET', `${kind.path}/abc`],
          ['GET', `${kind.path}/0`],
          ['GET', `${kind.path}/99999999999`],
          ['GET', `${kind.path}?id=abc`],
          ['GET', `${kind.path}?sort=color`],
          ['GET', `${kind.path}?limit=-1`],
          ['GET', `${kind.path}?next=garbage`],
          ['GET', `${kind.path}?offset=5000`],
          ['DELETE', `${kind.path}/${some.id}?${kind.assign}=abc`],
          ['DELETE', `${kind.path}/${some.id}?${kind.assign}=0`],
          ['DELETE', `${kind.path}/${some.id}?${kind.assign}=99999999999`],
        ];
        for (const [method, route, body] of cases) {
          const res = await server.call(method, route, { key: owner.key, body });
          assert.equal(
            res.status,
            400,
            `${method} ${route} ${JSON.stringify(body)} answered ${res.status} ${res.text}`,
          );
          assert.equal(typeof res.body.errorMessage, 'string');
          assert.ok(res.body.errorMessage.length > 0);
        }
        const malformed = await server.call('POST', kind.path, {
          key: owner.key,
          raw: '{"name":',
          contentType: 'application/json',
        });
        assert.equal(malformed.status, 400);
        assert.equal(
          (await server.get(owner.key, `${kind.path}/${some.id}`)).body.name,
          some.name,
          'nothing changed',
        );
      });
    });
  }

  it('a deletion racing appointment creation never leaves an appointment on the deleted type', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const doomed = await server.post(key, '/v1/appointmentTypes', { name: 'Doomed' });
    const heir = await server.post(key, '/v1/appointmentTypes', { name: 'Heir' });
    const creates = Array.from({ length: 12 }, (_, i) =>
      server.post(key, '/v1/appointments', { title: `Race ${i}`, ...slot, typeId: doomed.body.id }),
    );
    const deletion = server.del(
      key,
      `/v1/appointmentTypes/${doomed.body.id}?assignTypeId=${heir.body.id}`,
    );
    const [deleted, ...made] = await Promise.all([deletion, ...creates]);
    assert.equal(deleted.status, 204, deleted.text);
    for (const res of made)
      assert.ok(res.status === 201 || res.status === 400, `${res.status} ${res.text}`);
    const stored = await server.get(key, '/v1/appointments?limit=100');
    assert.equal(stored.body._metadata.total, made.filter((r) => r.status === 201).length);
    for (const a of stored.body.appointments) assert.equal(a.typeId, heir.body.id);
  });

  describe('appointments carry typeId and outcomeId', () => {
    it('stores and returns both, validates them against the caller account (400 naming the field), and clears them with null', async () => {
      const account = await server.newAccount();
      const agent = await account.addUser('Agent');
      const types: LabelOut[] = (
        await server.get(account.owner.key, '/v1/appointmentTypes?limit=100')
      ).body.appointmenttypes;
      const outcomes: LabelOut[] = (
        await server.get(account.owner.key, '/v1/appointmentOutcomes?limit=100')
      ).body.appointmentoutcomes;
      const showing = types.find((t) => t.name === 'Showing')!;
      const met = outcomes.find((o) => o.name === 'Met')!;

      const bare = await server.post(agent.key, '/v1/appointments', { title: 'Bare', ...slot });
      assert.equal(bare.status, 201, bare.text);
      assert.equal(bare.body.typeId, null);
      assert.equal(bare.body.outcomeId, null);

      const made = await server.post(agent.key, '/v1/appointments', {
        title: 'Tour',
        ...slot,
        typeId: String(showing.id),
        outcomeId: met.id,
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.typeId, showing.id);
      assert.equal(made.body.outcomeId, met.id);
      const got = await server.get(agent.key, `/v1/appointments/${made.body.id}`);
      assert.equal(got.body.typeId, showing.id);
      assert.equal(got.body.outcomeId, met.id);
      const listed = await server.get(account.owner.key, `/v1/appointments?id=${made.body.id}`);
      assert.equal(listed.body.appointments[0].outcomeId, met.id);

      const stranger = await server.newAccount();
      const theirType: LabelOut = (
        await server.get(stranger.owner.key, '/v1/appointmentTypes?limit=1')
      ).body.appointmenttypes[0];
      const theirOutcome: LabelOut = (
        await server.get(stranger.owner.key, '/v1/appointmentOutcomes?limit=1')
      ).body.appointmentoutcomes[0];
      const refusals: [string, Record<string, unknown>, string][] = [
        [
          'typeId',
          { typeId: theirType.id },
          `typeId: no appointment type ${theirType.id} in this account`,
        ],
        ['typeId', { typeId: 999999999 }, 'typeId: no appointment type 999999999 in this account'],
        [
          'outcomeId',
          { outcomeId: theirOutcome.id },
          `outcomeId: no appointment outcome ${theirOutcome.id} in this account`,
        ],
        [
          'outcomeId',
          { typeId: showing.id, outcomeId: 999999998 },
          'outcomeId: no appointment outcome 999999998 in this account',
        ],
      ];
      for (const [field, body, message] of refusals) {
        const created = await server.post(agent.key, '/v1/appointments', {
          title: 'Bad',
          ...slot,
          ...body,
        });
        assert.equal(created.status, 400, created.text);
        assert.equal(created.body.errorMessage, message);
        assert.equal(created.body.errors[0].field, field);
        const changed = await server.put(agent.key, `/v1/appointments/${made.body.id}`, body);
        assert.equal(changed.status, 400, changed.text);
        assert.equal(changed.body.errorMessage, message);
      }
      for (const body of [
        { typeId: 'abc' },
        { outcomeId: 0 },
        { outcomeId: 99999999999 },
        { typeId: 1.5 },
      ]) {
        const res = await server.post(agent.key, '/v1/appointments', {
          title: 'Bad',
          ...slot,
          ...body,
        });
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.body.errorMessage, /typeId|outcomeId/);
      }
      const unchanged = await server.get(agent.key, `/v1/appointments/${made.body.id}`);
      assert.equal(unchanged.body.typeId, showing.id);
      assert.equal(unchanged.body.outcomeId, met.id);
      assert.equal(
        (await server.get(account.owner.key, '/v1/appointments')).body._metadata.total,
        2,
        'no refused appointment was stored',
      );

      const noShow = outcomes.find((o) => o.name === 'No Show')!;
      const changed = await server.put(agent.key, `/v1/appointments/${made.body.id}`, {
        outcomeId: noShow.id,
        title: 'Tour 2',
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.body.outcomeId, noShow.id);
      assert.equal(changed.body.typeId, showing.id, 'absent typeId keeps its value');
      const cleared = await server.put(agent.key, `/v1/appointments/${made.body.id}`, {
        typeId: null,
        outcomeId: null,
      });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(cleared.body.typeId, null);
      assert.equal(cleared.body.outcomeId, null);
    });

    it('a type created by an Admin is usable by agents right away; a deleted one is refused', async () => {
      const account = await server.newAccount();
      const admin = await account.addUser('Admin');
      const agent = await account.addUser('Agent');
      const made = await server.post(admin.key, '/v1/appointmentTypes', { name: 'Inspection' });
      const used = await server.post(agent.key, '/v1/appointments', {
        title: 'Inspect',
        ...slot,
        typeId: made.body.id,
      });
      assert.equal(used.status, 201, used.text);
      const spare = await server.post(admin.key, '/v1/appointmentTypes', { name: 'Spare' });
      assert.equal(
        (await server.del(admin.key, `/v1/appointmentTypes/${spare.body.id}`)).status,
        204,
      );
      const refused = await server.post(agent.key, '/v1/appointments', {
        title: 'Late',
        ...slot,
        typeId: spare.body.id,
      });
      assert.equal(refused.status, 400);
      assert.match(refused.body.errorMessage, /^typeId: /);
    });
  });
});

/**
 * Migration 0120 on a database made before it: existing accounts get the default lists, and
 * type_ids stored when they named nothing become types of their own account.
 */
describe('migration 0120 on existing data', () => {
  const base = process.env.TEST_DATABASE_URL;
  let url: string;
  let dropDatabase: (() => Promise<void>) | null = null;
  let server: TestServer | null = null;

  before(async () => {
    if (base) {
      const name = `hearth_m0120_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const target = new URL(base);
      target.pathname = `/${name}`;
      url = target.toString();
      dropDatabase = async () => {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`drop database if exists ${name}`);
        await client.end();
      };
    } else {
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      url = `sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'hearth-m0120-')), 'old.db')}`;
    }
  });
  after(async () => {
    await server?.close();
    await dropDatabase?.();
  });

  it('seeds existing accounts and keeps old type ids as types of their own account', async () => {
    const { db, dialect } = openDatabase(url);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0120'));
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            Object.entries(before).map(([name, m]) => [name, { up: (d) => m.up(d, dialect) }]),
          ),
      },
    });
    const { error } = await migrator.migrateToLatest();
    assert.equal(error, undefined);
    const at = '2026-01-01T00:00:00Z';
    const keys: string[] = [];
    const accounts: number[] = [];
    for (const name of ['Old A', 'Old B']) {
      const account = await db
        .insertInto('accounts')
        .values({ name, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const key = newSecret('hk');
      await db
        .insertInto('users')
        .values({
          account_id: account.id,
          name: `Owner ${name}`,
          first_name: 'Owner',
          last_name: name,
          email: `${unique('old')}@example.com`,
          phone: '',
          role: 'Owner',
          api_key_hash: hashSecret(key),
          created_at: at,
          updated_at: at,
        })
        .execute();
      keys.push(key);
      accounts.push(account.id);
    }
    const appointment = (accountId: number, typeId: number | null) =>
      db
        .insertInto('appointments')
        .values({
          account_id: accountId,
          title: `old ${typeId}`,
          start_at: at,
          end_at: at,
          all_day: 0,
          description: '',
          location: '',
          type_id: typeId,
          origin: 'hearth',
          created_by_id: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const a7 = await appointment(accounts[0], 7);
    const a3 = await appointment(accounts[0], 3);
    const a7b = await appointment(accounts[0], 7);
    const aNone = await appointment(accounts[0], null);
    const b3 = await appointment(accounts[1], 3);
    await db.destroy();

    server = await startServer({ env: { DATABASE_URL: url } });
    assert.equal(dialectOf(url), server.ctx.dialect);
    const typesA: LabelOut[] = (await server.get(keys[0], '/v1/appointmentTypes?limit=100')).body
      .appointmenttypes;
    assert.deepEqual(
      typesA.map((t) => t.name),
      [
        'Buyer Consultation',
        'Listing Appointment',
        'Showing',
        'Closing',
        'Other',
        'Type 3',
        'Type 7',
      ],
    );
    assert.deepEqual(
      typesA.map((t) => t.orderWeight),
      [10, 20, 30, 40, 50, 60, 70],
    );
    const typesB: LabelOut[] = (await server.get(keys[1], '/v1/appointmentTypes?limit=100')).body
      .appointmenttypes;
    assert.deepEqual(
      typesB.map((t) => t.name),
      ['Buyer Consultation', 'Listing Appointment', 'Showing', 'Closing', 'Other', 'Type 3'],
    );
    const outcomesB = await server.get(keys[1], '/v1/appointmentOutcomes?limit=100');
    assert.deepEqual(
      outcomesB.body.appointmentoutcomes.map((o: LabelOut) => o.name),
      ['Met', 'No Show', 'Rescheduled', 'Canceled'],
    );

    const typeOf = async (key: string, id: number) => {
      const res = await server!.get(key, `/v1/appointments/${id}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.outcomeId, null);
      return res.body.typeId;
    };
    const type7 = typesA.find((t) => t.name === 'Type 7')!.id;
    assert.equal(await typeOf(keys[0], a7), type7);
    assert.equal(await typeOf(keys[0], a7b), type7);
    assert.equal(await typeOf(keys[0], a3), typesA.find((t) => t.name === 'Type 3')!.id);
    assert.equal(await typeOf(keys[0], aNone), null);
    assert.equal(await typeOf(keys[1], b3), typesB.find((t) => t.name === 'Type 3')!.id);

    // The kept type behaves like any other: it can be deleted into a default one.
    const showing = typesA.find((t) => t.name === 'Showing')!.id;
    assert.equal(
      (await server.del(keys[0], `/v1/appointmentTypes/${type7}?assignTypeId=${showing}`)).status,
      204,
    );
    assert.equal(await typeOf(keys[0], a7), showing);
    // Accounts made after the migration get the defaults from account creation.
    const fresh = await server.newAccount();
    assert.equal(
      (await server.get(fresh.owner.key, '/v1/appointmentTypes')).body._metadata.total,
      5,
    );
  });
});
