import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { EXPORT_HEADERS, IMPORT_FIELDS, recognise } from './columns.js';
import {
  csvOptions,
  detectDelimiter,
  detectEncoding,
  type Encoding,
  HEAD_BYTES,
  looksBinary,
  readHeader,
} from './decode.js';
import { unneutralise } from './csv-cells.js';

/** Distinct values per column the preview lists (a stage or agent column has a handful). */
const MAX_DISTINCT = 50;
/** Rows of the file the preview shows under each column. */
const PREVIEW_ROWS = 3;

const LABELS: Record<string, string> = {
  ...EXPORT_HEADERS,
  name: 'Name',
  street2: 'Address Line 2',
};

export const ImportPreview = Type.Object({
  encoding: Type.String(),
  delimiter: Type.String(),
  columns: Type.Array(
    Type.Object({
      header: Type.String(),
      field: Type.Union([Type.String(), Type.Null()], {
        description:
          'what the import reads the column as without a mapping: a field, a custom field name, or null (ignored)',
      }),
      contactType: Type.Optional(Type.String({ description: "an email's or phone's type" })),
      samples: Type.Array(Type.String(), { description: 'the column in the first rows' }),
      values: Type.Array(Type.String(), {
        description: `the column's distinct values in the first ${HEAD_BYTES / 1024} KiB of the file (at most ${MAX_DISTINCT}), for the wizard's value mapping`,
      }),
    }),
  ),
  fields: Type.Array(Type.Object({ field: Type.String(), label: Type.String() }), {
    description: "what a column can be mapped to (besides 'ignore'), custom fields last",
  }),
});

async function readHead(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > HEAD_BYTES)
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `Send only the first ${HEAD_BYTES / 1024} KiB of the file to preview it`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The data records at the start of the text; the head may end in the middle of one. */
async function firstRecords(text: string, delimiter: string, count?: number): Promise<string[][]> {
  const rows: string[][] = [];
  const parser = parse({
    ...csvOptions(delimiter),
    from: 2,
    ...(count === undefined ? {} : { to: count + 1 }),
  });
  parser.end(text);
  try {
    for await (const record of parser) rows.push((record as string[]).map(unneutralise));
  } catch {
    // what parsed before the cut is enough for a preview
  }
  return rows;
}

/**
 * The head of a CSV file as the import will read it: its encoding and separator, each column with
 * the field it is recognised as and its first values, and the fields a column can be mapped to.
 * The web app's import wizard shows this so a person can correct the mapping before importing.
 */
export async function previewImport(ctx: AppContext, auth: AuthUser, body: Readable) {
  const head = await readHead(body);
  if (head.length === 0) throw badRequest('The file is empty');
  const encoding: Encoding = detectEncoding(head);
  const text = new TextDecoder(encoding).decode(head);
  if (looksBinary(text)) throw badRequest('The file is not CSV text (it holds binary data)');
  const delimiter = detectDelimiter(text);
  const header = readHeader(text, delimiter, false);
  const all = await firstRecords(text, delimiter);
  const rows = all.slice(0, PREVIEW_ROWS);
  const distinct = header.map((_h, i) => {
    const seen = new Map<string, string>();
    for (const r of all) {
      const value = (r[i] ?? '').trim();
      if (value && !seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
      if (seen.size === MAX_DISTINCT) break;
    }
    return [...seen.values()];
  });
  const custom = await loadDefinitions(ctx.db, auth.accountId, 'person');
  return {
    encoding,
    delimiter,
    columns: header.map((h, i) => {
      const target = recognise(h, custom);
      return {
        header: h,
        field: !target ? null : 'custom' in target ? target.custom.name : target.field,
        ...(target && 'field' in target && target.contactType
          ? { contactType: target.contactType }
          : {}),
        samples: rows.map((r) => (r[i] ?? '').trim()),
        values: distinct[i],
      };
    }),
    fields: [
      ...IMPORT_FIELDS.map((field) => ({ field, label: LABELS[field] })),
      ...custom.map((d) => ({ field: d.name, label: d.label })),
    ],
  };
}
