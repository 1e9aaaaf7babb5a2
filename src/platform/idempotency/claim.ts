import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type TransactionSettings,
} from 'kysely';
import type { DialectName } from '../db/dialect.js';
import { isUniqueViolation } from '../db/dialect.js';
import { ApiError } from '../http/errors.js';

/** The Idempotency-Key of the request being handled, while its handler runs. */
export interface IdempotencyScope {
  accountId: number;
  key: string;
  fingerprint: string;
  createdAt: string;
  /** the key's row was written inside one of the request's transactions (or is being written) */
  claimed: boolean;
  /** the handler has answered: later transactions (work it left running) are not the request's */
  closed: boolean;
}

export const idempotencyScope = new AsyncLocalStorage<IdempotencyScope>();

export const keyInUse = () =>
  new ApiError(
    409,
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being processed; retry it in a moment',
    undefined,
    { 'Retry-After': '1' },
  );

function claimQuery(dialect: DialectName, scope: IdempotencyScope): CompiledQuery {
  const p = dialect === 'postgres' ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
  return CompiledQuery.raw(
    'insert into idempotency_keys (account_id, idempotency_key, fingerprint, created_at) ' +
      `values (${p.join(', ')})`,
    [scope.accountId, scope.key, scope.fingerprint, scope.createdAt],
  );
}

/**
 * Wraps a driver so that the first transaction a request with an Idempotency-Key commits also
 * writes the key's row, just before COMMIT: the key is recorded if and only if the work is. A
 * crash after the commit but before the answer leaves the row (so a retry cannot repeat the work);
 * a crash before it leaves nothing (so a retry does the work once). A concurrent request with the
 * same key fails its insert and is rolled back whole.
 */
class ClaimingDriver implements Driver {
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly dialect: DialectName,
  ) {
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  init() {
    return this.inner.init();
  }
  acquireConnection() {
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const scope = idempotencyScope.getStore();
    if (scope && !scope.claimed && !scope.closed) {
      scope.claimed = true;
      try {
        await connection.executeQuery(claimQuery(this.dialect, scope));
      } catch (err) {
        scope.claimed = false;
        throw isUniqueViolation(err) ? keyInUse() : err;
      }
    }
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** The dialect with idempotency claims in its transactions (see ClaimingDriver). */
export function withIdempotencyClaims(dialect: Dialect, name: DialectName): Dialect {
  return {
    createDriver: () => new ClaimingDriver(dialect.createDriver(), name),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
