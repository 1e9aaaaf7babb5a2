import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listConcurrency } from './list-concurrency.js';
import { loadConfig } from '../config.js';

describe('how many people-list reads run at once', () => {
  it('SQLite: a read thread per core, 2 to 4', () => {
    assert.equal(listConcurrency('sqlite:/tmp/h.db', null, 10, 1), 2);
    assert.equal(listConcurrency('sqlite:/tmp/h.db', null, 10, 2), 2);
    assert.equal(listConcurrency('sqlite:/tmp/h.db', null, 10, 3), 3);
    assert.equal(listConcurrency('sqlite:/tmp/h.db', null, 10, 16), 4);
  });

  it('PostgreSQL on this machine: half of the cores, at least one', () => {
    for (const url of [
      'postgres://postgres@127.0.0.1:5432/test',
      'postgres://u:p@localhost/hearth',
      'postgres://u@[::1]:5432/hearth',
      'postgres:///hearth?host=/var/run/postgresql',
      'postgresql://u@%2Fvar%2Frun%2Fpostgresql/hearth',
    ]) {
      assert.equal(listConcurrency(url, null, 10, 2), 1, url);
      assert.equal(listConcurrency(url, null, 10, 8), 4, url);
    }
  });

  it('PostgreSQL on another host: half of the pool', () => {
    assert.equal(listConcurrency('postgres://u@db.internal:5432/hearth', null, 10, 2), 5);
    assert.equal(listConcurrency('postgres://u@10.0.0.7/hearth', null, 20, 2), 10);
  });

  it('HEARTH_LIST_CONCURRENCY decides when set, and is checked', () => {
    assert.equal(listConcurrency('postgres://u@127.0.0.1/h', 6, 10, 2), 6);
    assert.equal(listConcurrency('sqlite:/tmp/h.db', 1, 10, 8), 1);
    const base = { HEARTH_DATA_DIR: '/tmp/hearth-config-test' };
    assert.equal(loadConfig({ ...base }).listConcurrency, null);
    assert.equal(loadConfig({ ...base, HEARTH_LIST_CONCURRENCY: '3' }).listConcurrency, 3);
    assert.throws(
      () => loadConfig({ ...base, HEARTH_LIST_CONCURRENCY: '0' }),
      /HEARTH_LIST_CONCURRENCY must be between 1 and 64/,
    );
  });
});
