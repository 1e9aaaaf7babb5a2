import type { Generated } from 'kysely';
import type { DateFormat } from './dates.js';

export type ImportStatus = 'uploading' | 'queued' | 'running' | 'done' | 'failed';
export type UndoStatus = 'queued' | 'running' | 'done';

export interface ImportsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  status: ImportStatus;
  dry_run: number;
  on_duplicate: 'update' | 'skip';
  /** JSON: the explicit mapping sent (header → field), `{}` when none */
  mapping: string;
  /** JSON: the value mapping (values.ts), `{}` when none */
  value_map: string;
  encoding: string;
  delimiter: string;
  /** the order of day and month in the file's numeric dates (src/contacts/imports/dates.ts) */
  date_format: DateFormat;
  byte_size: number;
  /** data rows in the file, once the worker has counted them */
  total: number | null;
  processed: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  skipped: Generated<number>;
  error_count: Generated<number>;
  /** why the whole import failed */
  message: string | null;
  undo_status: UndoStatus | null;
  removed: Generated<number>;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface ImportChunksTable {
  import_id: number;
  seq: number;
  data: Buffer;
}

export interface ImportErrorsTable {
  import_id: number;
  row: number;
  message: string;
}

/** A row imported with a substitute (an unknown stage or agent): GET /v1/imports/:id `warnings`. */
export type ImportWarningsTable = ImportErrorsTable;

export interface ImportPeopleTable {
  import_id: number;
  person_id: number;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    imports: ImportsTable;
    import_chunks: ImportChunksTable;
    import_errors: ImportErrorsTable;
    import_warnings: ImportWarningsTable;
    import_people: ImportPeopleTable;
  }
}
