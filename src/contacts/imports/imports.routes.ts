import { Readable } from 'node:stream';

import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError, notFound } from '../../platform/http/errors.js';
import { assertGate, Gate } from '../../access/gates.js';
import { Bool, IdParams, responses, toBool } from '../../platform/http/schemas.js';
import {
  ListEnvelope,
  paginate,
  PageQuery,
  readPage,
  readSort,
} from '../../platform/http/pagination.js';
import { ENCODINGS, HEAD_BYTES } from './decode.js';
import { DATE_FORMATS } from './dates.js';
import { ImportPreview, previewImport } from './preview.js';
import { parseMapping } from './plan.js';
import { parseValueMap } from './values.js';
import { errorsAfter, findVisibleImport, firstErrors, visibleImports } from './imports.repo.js';
import { Import, presentImport } from './imports.presenter.js';
import { MAX_IMPORT_BYTES, receiveUpload, tooLarge } from './upload.js';
import { queueUndo } from './undo.js';
import { csvWriter } from './csv-cells.js';

const tags = ['imports'];
/** Spreadsheets and browsers label a .csv file with any of these. */
const CSV_TYPES = [
  'text/csv',
  'text/plain',
  'text/tab-separated-values',
  'application/csv',
  'application/vnd.ms-excel',
  'application/octet-stream',
];
const DELIMITER_NAMES: Record<string, string> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  '\t': '\t',
  tab: '\t',
};

const ImportQuery = Type.Object(
  {
    dryRun: Type.Optional(Bool({ description: 'Report what would happen; change nothing' })),
    onDuplicate: Type.Optional(
      Type.Union([Type.Literal('update'), Type.Literal('skip')], {
        description: 'A row matching a known person (email, then phone): fill them in, or skip',
      }),
    ),
    mapping: Type.Optional(
      Type.String({ description: 'JSON object: column header → field (or "ignore")' }),
    ),
    values: Type.Optional(
      Type.String({
        description:
          'JSON object: the file\'s own stage, agent, lender and source values → Hearth\'s, e.g. {"stage":{"Hot":12},"assignedTo":{"Bob S.":3},"source":{"zillow":"Zillow"}} (stage and user ids; matched without case)',
      }),
    ),
    encoding: Type.Optional(Type.Union(ENCODINGS.map((e) => Type.Literal(e)))),
    delimiter: Type.Optional(Type.Union(Object.keys(DELIMITER_NAMES).map((d) => Type.Literal(d)))),
    dateFormat: Type.Optional(
      Type.Union(
        DATE_FORMATS.map((f) => Type.Literal(f)),
        {
          description:
            'The order of month and day in numeric dates such as 3/7/2025: MDY (default, March 7, as US spreadsheets write them) or DMY (7 March). ' +
            'Dates (Created, date custom fields) may be ISO 8601 (2025-03-07, 2025-03-07T14:30:00Z), M/D/YYYY or M/D/YY in that order ' +
            '(separated by /, - or .; 00-29 are 2000-2029, 30-99 1930-1999), or YYYY/M/D, each with an optional time (14:30, 14:30:05, 2:30 PM); ' +
            'without a zone a time is UTC. The rest of the API takes ISO 8601 only.',
        },
      ),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const importsRoutes: RoutePlugin = async (app, { ctx }) => {
  // The upload reaches the handler as a stream (this plugin's routes only): never one string.
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));

  app.post(
    '/v1/imports',
    {
      bodyLimit: MAX_IMPORT_BYTES,
      schema: {
        tags,
        summary: `Import people from a CSV file (the body, at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB)`,
        querystring: ImportQuery,
        response: responses({ 202: Type.Object({ id: Type.Integer(), status: Type.String() }) }),
      },
    },
    async (request, reply) => {
      try {
        // In the handler, not the route's config: a refused upload must close the connection below.
        assertGate(Gate.staff, request.auth);
        if (!(request.body instanceof Readable))
          throw new ApiError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the CSV file as the request body with Content-Type: text/csv',
          );
        if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) throw tooLarge();
        const q = request.query;
        const id = await receiveUpload(ctx, request.auth, request.body, {
          dryRun: toBool(q.dryRun) ?? false,
          onDuplicate: q.onDuplicate ?? 'update',
          mapping: parseMapping(q.mapping),
          values: parseValueMap(q.values),
          encoding: q.encoding,
          delimiter: q.delimiter && DELIMITER_NAMES[q.delimiter],
          dateFormat: q.dateFormat ?? 'MDY',
        });
        return reply.code(202).send({ id, status: 'queued' });
      } catch (err) {
        // The rest of a refused upload is not read: the connection cannot carry another request.
        reply.header('connection', 'close');
        throw err;
      }
    },
  );

  app.post(
    '/v1/imports/preview',
    {
      bodyLimit: HEAD_BYTES,
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary: `How the import reads a CSV file: send its first ${HEAD_BYTES / 1024} KiB at most; answers each column's recognised field and first values`,
        response: responses({ 200: ImportPreview }),
      },
    },
    async (request) => {
      if (!(request.body instanceof Readable))
        throw new ApiError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the start of the CSV file as the request body with Content-Type: text/csv',
        );
      return previewImport(ctx, request.auth, request.body);
    },
  );

  app.get(
    '/v1/imports',
    {
      schema: {
        tags,
        summary: 'Imports of the account (an Agent: their own), newest first',
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListEnvelope('imports', Import) }),
      },
    },
    async (request) => {
      const page = await paginate<Parameters<typeof presentImport>[0]>(request, {
        collection: 'imports',
        query: visibleImports(ctx.db, request.auth),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, imports: page.rows.map((r) => presentImport(r, [])) };
    },
  );

  app.get(
    '/v1/imports/:id',
    {
      schema: {
        tags,
        summary: 'An import: progress, counts and the first errors',
        params: IdParams,
        response: responses({ 200: Import }),
      },
    },
    async (request) => {
      const row = await findVisibleImport(ctx.db, request.auth, request.params.id);
      if (!row) throw notFound(`Import ${request.params.id}`);
      return presentImport(
        row,
        await firstErrors(ctx.db, row.id),
        await firstErrors(ctx.db, row.id, undefined, 'warnings'),
      );
    },
  );

  app.get(
    '/v1/imports/:id/errors.csv',
    {
      schema: {
        tags,
        summary: "Every row the import could not take, with the reason (CSV: 'row,message')",
        params: IdParams,
        produces: ['text/csv'],
        response: responses({ 200: Type.String() }),
      },
    },
    async (request, reply) => {
      const row = await findVisibleImport(ctx.db, request.auth, request.params.id);
      if (!row) throw notFound(`Import ${request.params.id}`);
      const records = Readable.from(
        (async function* () {
          yield ['row', 'message'];
          let after = 0;
          for (;;) {
            const errors = await errorsAfter(ctx.db, row.id, after, 1000);
            for (const e of errors) yield [String(e.row), e.message];
            if (errors.length < 1000) return;
            after = errors[errors.length - 1].row;
          }
        })(),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${row.id}-errors.csv"`)
        .send(records.pipe(csvWriter()));
    },
  );

  app.delete(
    '/v1/imports/:id',
    {
      schema: {
        tags,
        summary:
          'Undo an import: removes the people it created (and nothing else) in the background',
        params: IdParams,
        response: responses({ 202: Import }),
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      await queueUndo(ctx, request.auth, id);
      const row = (await findVisibleImport(ctx.db, request.auth, id))!;
      return reply.code(202).send(presentImport(row, await firstErrors(ctx.db, id)));
    },
  );
};
