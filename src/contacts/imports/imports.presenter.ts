import { Type } from '@sinclair/typebox';
import { Nullable } from '../../platform/http/schemas.js';
import type { ImportRow } from './imports.repo.js';

/** GET /v1/imports/:id: the CONTRACT fields, then what the web app's progress and undo show. */
export const Import = Type.Object({
  id: Type.Integer(),
  status: Type.String({ description: 'queued, running, done or failed' }),
  total: Nullable(Type.Integer({ description: 'data rows in the file, once counted' })),
  processed: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer({
    description:
      'blank rows, and rows matching a known person that added nothing (or onDuplicate=skip)',
  }),
  errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() }), {
    description: 'the first 100 row errors (row 1 is the header); all of them: errors.csv',
  }),
  errorCount: Type.Integer(),
  warnings: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() }), {
    description:
      'the first 100 rows imported with a substitute: a stage or agent that matched none (row 1 is the header)',
  }),
  message: Nullable(Type.String({ description: 'why the import failed as a whole' })),
  dryRun: Type.Boolean(),
  onDuplicate: Type.String(),
  encoding: Type.String(),
  delimiter: Type.String(),
  dateFormat: Type.String({
    description: 'MDY or DMY: how numeric dates such as 3/7/2025 were read',
  }),
  size: Type.Integer({ description: 'bytes uploaded' }),
  undo: Nullable(
    Type.Object({
      status: Type.String({ description: 'queued, running or done' }),
      removed: Type.Integer(),
    }),
  ),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

type RowNote = { row: number; message: string };

export function presentImport(row: ImportRow, errors: RowNote[], warnings: RowNote[] = []) {
  return {
    id: row.id,
    status: row.status,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    skipped: row.skipped,
    errors,
    errorCount: row.error_count,
    warnings,
    message: row.message,
    dryRun: row.dry_run === 1,
    onDuplicate: row.on_duplicate,
    encoding: row.encoding,
    delimiter: row.delimiter,
    dateFormat: row.date_format,
    size: row.byte_size,
    undo: row.undo_status ? { status: row.undo_status, removed: row.removed } : null,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
