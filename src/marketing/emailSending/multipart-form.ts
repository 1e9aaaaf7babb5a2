import type { IncomingHttpHeaders } from 'node:http';
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { BODY_LIMIT } from '../../platform/http/body.js';

/** RFC 8058's body is one short field ("List-Unsubscribe=One-Click"): a few KiB is plenty. */
export const MULTIPART_FORM_LIMIT = 16 * 1024;
const tooLarge = (problem: string) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `Multipart form refused: ${problem}`);
const LIMITS = {
  files: 0,
  fields: 8,
  parts: 8,
  fieldSize: 1024,
  fieldNameSize: 100,
  headerPairs: 20,
};

/** The text fields of a multipart/form-data body; file parts and oversized fields are a 4xx. */
export function multipartFields(
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const refuse = (problem: string) => reject(tooLarge(problem));
    let parser;
    try {
      parser = Busboy({ headers: headers as BusboyHeaders, limits: LIMITS });
    } catch (err) {
      return reject(badRequest(`Malformed multipart body: ${(err as Error).message}`));
    }
    const fields: [string, string][] = [];
    parser.on('field', (name: string, value: string, nameCut: boolean, valueCut: boolean) => {
      if (nameCut || valueCut) refuse(`field '${name.slice(0, 100)}' is too long`);
      else fields.push([name, value]);
    });
    parser.on('filesLimit', () => refuse('only text fields are accepted, no files'));
    parser.on('partsLimit', () => refuse(`at most ${LIMITS.parts} parts`));
    parser.on('fieldsLimit', () => refuse(`at most ${LIMITS.fields} fields`));
    parser.on('error', (err: Error) =>
      reject(badRequest(`Malformed multipart body: ${err.message}`)),
    );
    // fromEntries defines the keys: a field named __proto__ stays a plain field.
    parser.on('finish', () => resolve(Object.fromEntries(fields)));
    parser.end(body);
  });
}

/** Lets the routes of `app` (one plugin's scope) take small multipart/form-data bodies. */
export function acceptMultipartForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      if ((body as Buffer).length > MULTIPART_FORM_LIMIT)
        return done(tooLarge(`the body is over ${MULTIPART_FORM_LIMIT / 1024} KiB`));
      multipartFields(request.headers, body as Buffer).then(
        (fields) => done(null, fields),
        (err: Error) => done(err),
      );
    },
  );
}
