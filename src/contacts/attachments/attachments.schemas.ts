import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { attachmentSchema } from './attachments.shared.js';

const Uri = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Where the file is hosted; Hearth stores the address and never fetches it',
});
const FileName = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const FileSize = Nullable(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Bytes' }));

/** The record, create, update and list schemas of one kind of attachment (dealId or personId). */
export function attachmentSchemas(parentKey: 'dealId' | 'personId') {
  const parentId = Type.Integer({ minimum: 1, maximum: MAX_ID });
  return {
    record: attachmentSchema(parentKey),
    create: Type.Object(
      {
        [parentKey]: parentId,
        uri: Type.Optional(Uri),
        fileName: FileName,
        fileSize: Type.Optional(FileSize),
        ...SystemField,
      },
      { additionalProperties: false },
    ),
    update: Type.Object(
      {
        // The real API documents it as required on PUT; it names the record, it cannot move it.
        [parentKey]: Type.Optional(parentId),
        uri: Type.Optional(Uri),
        fileName: Type.Optional(FileName),
        fileSize: Type.Optional(FileSize),
        ...SystemField,
      },
      { additionalProperties: false },
    ),
    list: Type.Object(
      {
        ...PageQuery,
        [parentKey]: Type.Optional(parentId),
        sort: Type.Optional(Type.String({ description: 'created or fileName; -field descending' })),
        system: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
  };
}
