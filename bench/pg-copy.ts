// COPY … FROM STDIN over a node-postgres client without another dependency: a Submittable (the
// interface pg-cursor and pg-copy-streams use) that answers the server's CopyInResponse with the
// chunks it is given, waiting for the socket to drain, so the next chunk is made in JS while the
// server stores the last one.
import { once } from 'node:events';
import type pg from 'pg';

/** The parts of pg's Connection a COPY uses (connection.js; not all are in @types/pg). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain: boolean };
}

/** A value as COPY's text format writes it: \N for NULL, backslash escapes for the rest. */
export function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      )
    : value;
}

/**
 * Runs `copy <table> (<columns>) from stdin` with the text `next()` returns (rows of tab-separated
 * copyValue()s, each ending in a newline) until it returns null.
 */
export function copyFrom(client: pg.Client, statement: string, next: () => string | null) {
  return new Promise<void>((resolve, reject) => {
    let failure: unknown;
    const copy = {
      submit(connection: CopyConnection) {
        connection.query(statement);
      },
      handleCopyInResponse(connection: CopyConnection) {
        void (async () => {
          try {
            for (let chunk = next(); chunk !== null && failure === undefined; chunk = next()) {
              connection.sendCopyFromChunk(Buffer.from(chunk));
              if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
            }
            if (failure === undefined) connection.endCopyFrom();
          } catch (error) {
            failure = error;
            connection.sendCopyFail(String(error));
          }
        })();
      },
      handleError(error: unknown) {
        failure ??= error;
      },
      handleReadyForQuery() {
        if (failure === undefined) resolve();
        else reject(failure instanceof Error ? failure : new Error(String(failure)));
      },
      handleCommandComplete() {},
      handleRowDescription() {},
      handleDataRow() {},
      handleEmptyQuery() {},
      handlePortalSuspended() {},
    };
    client.query(copy as unknown as pg.Submittable);
  });
}
