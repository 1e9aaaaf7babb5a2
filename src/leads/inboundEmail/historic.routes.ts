import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError } from '../../platform/http/errors.js';
import { assertGate, Gate } from '../../access/gates.js';
import { IdParams, Nullable, responses } from '../../platform/http/schemas.js';
import { historicReport, MAX_MBOX_BYTES, receiveMbox } from './historic.js';

const tags = ['inboundEmails'];
const MBOX_TYPES = ['application/mbox', 'application/octet-stream', 'text/plain'];

const HistoricReport = Type.Object({
  id: Type.Integer(),
  status: Type.String({ description: 'queued, running, done or failed' }),
  total: Nullable(Type.Integer({ description: 'messages in the file' })),
  processed: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer({ description: 'no lead in it, or a message the account had already' }),
  errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() }), {
    description: 'the first 100; row is the message number in the file (from 1)',
  }),
  message: Nullable(Type.String()),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

/** Historic parsing: an mbox file's lead emails become people as they were then. */
export const inboundHistoricRoutes: RoutePlugin = async (app, { ctx }) => {
  app.addContentTypeParser(MBOX_TYPES, (_request, payload, done) => done(null, payload));

  app.post(
    '/v1/inboundEmails/historic',
    {
      bodyLimit: MAX_MBOX_BYTES,
      schema: {
        tags,
        summary: `Parse the lead emails of an mbox file (Content-Type: application/mbox, at most ${MAX_MBOX_BYTES / 1024 / 1024} MiB) as history`,
        response: responses({ 202: Type.Object({ id: Type.Integer(), status: Type.String() }) }),
      },
    },
    async (request, reply) => {
      try {
        assertGate(Gate.admin, request.auth);
        if (!(request.body instanceof Readable))
          throw new ApiError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the mbox file as the request body with Content-Type: application/mbox',
          );
        if (Number(request.headers['content-length'] ?? 0) > MAX_MBOX_BYTES)
          throw new ApiError(
            413,
            'PAYLOAD_TOO_LARGE',
            `The file is larger than ${MAX_MBOX_BYTES} bytes; split the mbox file`,
          );
        const id = await receiveMbox(ctx, request.auth, request.body);
        return reply.code(202).send({ id, status: 'queued' });
      } catch (err) {
        reply.header('connection', 'close');
        throw err;
      }
    },
  );

  app.get(
    '/v1/inboundEmails/historic/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'The progress and errors of a historic parsing',
        params: IdParams,
        response: responses({ 200: HistoricReport }),
      },
    },
    async (request) => historicReport(ctx, request.auth.accountId, request.params.id),
  );
};
