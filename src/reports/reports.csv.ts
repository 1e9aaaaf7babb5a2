import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';

/** A report's rows as CSV (a header line of the row's field names), sent as a download. */
export function sendCsv(
  reply: FastifyReply,
  name: string,
  period: { since: string; until: string },
  columns: string[],
  rows: Record<string, unknown>[],
): FastifyReply {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const text = stringify([columns, ...rows.map((r) => columns.map((c) => cell(r[c])))], {
    bom: true,
    record_delimiter: '\r\n',
  });
  const file = `${name}-${period.since.slice(0, 10)}-${period.until.slice(0, 10)}.csv`;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file}"`)
    .send(text);
}
