import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startServer, type TestServer } from '../support/server.js';

const slot = { start: '2026-05-01T15:00:00Z', end: '2026-05-01T16:00:00Z' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * PostgreSQL only (SQLite runs one write transaction at a time). An appointment naming a type locks
 * the type row, then its insert needs a key-share lock on the account; renaming or deleting the type
 * locked the account, then the type. With the account locked FOR UPDATE the two deadlocked and one
 * answered 500; FOR NO KEY UPDATE lets the insert through.
 */
describe(
  'appointment types under concurrent change (PostgreSQL locks)',
  { skip: !onPostgres && 'needs TEST_DATABASE_URL' },
  () => {
    let server: TestServer;
    before(async () => {
      server = await startServer();
    });
    after(async () => server.close());

    for (const action of ['rename', 'delete'] as const) {
      it(`an appointment created while its type is being ${action === 'rename' ? 'renamed' : 'deleted'} waits instead of deadlocking`, async () => {
        const account = await server.newAccount();
        const key = account.owner.key;
        const type = await server.post(key, '/v1/appointmentTypes', { name: 'Busy' });
        const heir = await server.post(key, '/v1/appointmentTypes', { name: 'Heir' });
        // Another request reading the type holds a share lock on it for a moment: it forces the
        // interleaving (the change locks the account, then waits for the type row).
        const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await other.connect();
        try {
          await other.query('begin');
          await other.query('select id from appointment_types where id = $1 for share', [
            type.body.id,
          ]);
          const change =
            action === 'rename'
              ? server.put(key, `/v1/appointmentTypes/${type.body.id}`, { name: 'Renamed' })
              : server.del(
                  key,
                  `/v1/appointmentTypes/${type.body.id}?assignTypeId=${heir.body.id}`,
                );
          await sleep(300);
          const create = server.post(key, '/v1/appointments', {
            title: 'During the change',
            ...slot,
            typeId: type.body.id,
          });
          await sleep(300);
          await other.query('commit');
          const [changed, created] = await Promise.all([change, create]);
          assert.ok(
            changed.status >= 200 && changed.status < 300,
            `${action}: ${changed.status} ${changed.text}`,
          );
          assert.equal(created.status, 201, created.text);
          const appointment = await server.get(key, `/v1/appointments/${created.body.id}`);
          assert.equal(appointment.body.typeId, action === 'rename' ? type.body.id : heir.body.id);
        } finally {
          await other.end();
        }
      });
    }
  },
);
