import { Type } from '@sinclair/typebox';
import { badRequest, forbidden } from '../../platform/http/errors.js';
import { Nullable } from '../../platform/http/schemas.js';

/** A stored attachment row: the same columns for every parent (deals, people) but the parent id. */
export interface AttachmentRow {
  id: number;
  account_id: number;
  parent_id: number;
  uri: string;
  file_name: string;
  file_size: number | null;
  created_by_id: number | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
}

/** The record shape shared by deal and person attachments; `parentKey` is dealId or personId. */
export function attachmentSchema(parentKey: string) {
  return Type.Object({
    id: Type.Integer(),
    [parentKey]: Type.Integer(),
    fileName: Type.String(),
    fileSize: Nullable(Type.Integer()),
    mimeType: Type.String({
      description: "From the file name's extension; the file is never read",
    }),
    uri: Type.String(),
    status: Type.String({ description: 'Active' }),
    createdAt: Type.String(),
    createdById: Nullable(Type.Integer()),
    createdByName: Nullable(Type.String()),
    created: Type.String(),
    updated: Type.String(),
  });
}

const MIME_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  zip: 'application/zip',
};

/** The MIME type a file name suggests: Hearth never fetches the file to look. */
export function mimeTypeOf(fileName: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  return (extension && MIME_TYPES[extension]) || 'application/octet-stream';
}

export function presentAttachment(row: AttachmentRow, parentKey: string) {
  return {
    id: row.id,
    [parentKey]: row.parent_id,
    fileName: row.file_name,
    fileSize: row.file_size,
    mimeType: mimeTypeOf(row.file_name),
    uri: row.uri,
    status: 'Active',
    createdAt: row.created_at,
    createdById: row.created_by_id,
    createdByName: row.created_by_name,
    created: row.created_at,
    updated: row.updated_at,
  };
}

/**
 * Checks an attachment's address without fetching it (never on the request path). `httpsOnly`:
 * person attachments, as the real API; deal attachments have always taken http too.
 */
export function checkUri(uri: string | undefined, httpsOnly: boolean): string {
  if (uri === undefined)
    throw forbidden(
      "Uploading files is not supported: send 'uri', the address where the file is hosted",
    );
  const value = uri.trim();
  const schemes = httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!URL.canParse(value) || !schemes.includes(new URL(value).protocol))
    throw badRequest(
      `'uri' must be an absolute ${httpsOnly ? 'https' : 'http or https'} URL, got '${uri}'`,
      [{ field: 'uri', message: 'invalid URL' }],
    );
  return value;
}
