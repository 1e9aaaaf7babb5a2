import { checkValueMap, type ValueMap } from './values.js';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import {
  detectDelimiter,
  detectEncoding,
  type Encoding,
  HEAD_BYTES,
  looksBinary,
  readHeader,
} from './decode.js';
import { planColumns } from './plan.js';
import type { DateFormat } from './dates.js';
import { deleteImport, insertImport, storeChunk, updateImport } from './imports.repo.js';

/** The largest CSV file an import takes (documented in the README). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The upload is stored in pieces of this size: memory stays flat whatever the file size. */
const CHUNK_BYTES = 1024 * 1024;
export const IMPORT_JOB = 'import';

export interface ImportOptions {
  dryRun: boolean;
  onDuplicate: 'update' | 'skip';
  mapping: Record<string, string>;
  values: ValueMap;
  encoding?: Encoding;
  delimiter?: string;
  dateFormat: DateFormat;
}

export const tooLarge = () =>
  new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; split it into smaller files`,
  );

const emptyFile = () =>
  badRequest('The file is empty: send a CSV whose first line names the columns');

/**
 * Tells the upload's encoding and separator from its head and checks its header against the
 * account's fields, so a file that cannot be imported is refused before it is queued.
 */
async function inspectHead(
  ctx: AppContext,
  auth: AuthUser,
  head: Buffer,
  complete: boolean,
  options: ImportOptions,
) {
  if (head.length === 0) throw emptyFile();
  const encoding = options.encoding ?? detectEncoding(head);
  const text = new TextDecoder(encoding).decode(head, { stream: !complete });
  if (text.trim() === '') throw emptyFile();
  if (looksBinary(text))
    throw badRequest(
      'The file is not CSV text (it holds binary data); export it from your spreadsheet as CSV',
    );
  const delimiter = options.delimiter ?? detectDelimiter(text);
  const header = readHeader(text, delimiter, complete);
  planColumns(header, options.mapping, await loadDefinitions(ctx.db, auth.accountId, 'person'));
  await checkValueMap(ctx.db, auth.accountId, options.values);
  return { encoding, delimiter };
}

/**
 * Stores the request body in the database piece by piece (never the whole file in memory, and
 * any worker can read it), then queues the import. Anything refused leaves nothing behind.
 */
export async function receiveUpload(
  ctx: AppContext,
  auth: AuthUser,
  body: Readable,
  options: ImportOptions,
): Promise<number> {
  const nowMs = ctx.clock.now();
  const at = isoSeconds(nowMs);
  // An upload cut off by a crash of the API leaves its row behind: gone after an hour.
  await ctx.db
    .deleteFrom('imports')
    .where('status', '=', 'uploading')
    .where('created_at', '<', isoSeconds(nowMs - 3600_000))
    .execute();
  const id = await insertImport(ctx.db, {
    account_id: auth.accountId,
    user_id: auth.userId,
    status: 'uploading',
    dry_run: options.dryRun ? 1 : 0,
    on_duplicate: options.onDuplicate,
    mapping: JSON.stringify(options.mapping),
    value_map: JSON.stringify(options.values),
    encoding: '',
    delimiter: '',
    date_format: options.dateFormat,
    byte_size: 0,
    total: null,
    message: null,
    undo_status: null,
    created_at: at,
    updated_at: at,
    finished_at: null,
  });
  try {
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let format: { encoding: Encoding; delimiter: string } | null = null;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_IMPORT_BYTES) throw tooLarge();
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (!format && size >= HEAD_BYTES)
        format = await inspectHead(ctx, auth, Buffer.concat(pending), false, options);
      if (pendingBytes >= CHUNK_BYTES) {
        await storeChunk(ctx.db, id, seq++, Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
    }
    format ??= await inspectHead(ctx, auth, Buffer.concat(pending), true, options);
    if (pendingBytes) await storeChunk(ctx.db, id, seq++, Buffer.concat(pending));
    await ctx.db.transaction().execute(async (trx) => {
      await updateImport(trx, id, { status: 'queued', byte_size: size, ...format });
      await enqueueJob(ctx, trx, {
        accountId: auth.accountId,
        kind: IMPORT_JOB,
        payload: { importId: id },
      });
    });
    return id;
  } catch (err) {
    await deleteImport(ctx.db, id);
    throw err;
  }
}
