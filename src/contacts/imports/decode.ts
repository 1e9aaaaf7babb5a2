import { parse } from 'csv-parse/sync';
import { badRequest } from '../../platform/http/errors.js';

export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const DELIMITERS = [',', ';', '\t'] as const;

/** How much of the upload is read to tell its encoding, separator and header. */
export const HEAD_BYTES = 256 * 1024;
/** A field longer than this (often an unclosed quote) stops the import with an error. */
export const MAX_FIELD_CHARS = 1024 * 1024;

/** csv-parse options shared by the header check and the worker. */
export function csvOptions(delimiter: string) {
  return {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_FIELD_CHARS,
    bom: true,
  };
}

/**
 * Spreadsheets save CSV as UTF-8 (with or without a byte order mark), UTF-16 (Excel's "Unicode
 * text", with a mark) or Windows-1252 (Excel on Windows): the mark decides, then zero bytes in
 * every other position (UTF-16 without a mark), then whether the head is valid UTF-8.
 */
export function detectEncoding(head: Buffer): Encoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const sample = head.subarray(0, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2) oddZeros++;
    else evenZeros++;
  }
  const half = sample.length / 2;
  if (oddZeros > half * 0.4 && evenZeros < half * 0.05) return 'utf-16le';
  if (evenZeros > half * 0.4 && oddZeros < half * 0.05) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** A streaming decoder of the upload: bytes in, text out, a byte order mark dropped. */
export function textDecoder(encoding: Encoding): TextDecoder {
  return new TextDecoder(encoding);
}

/** The separator that splits the header line most often (outside quotes). */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

/** Text is binary when it holds many control characters (tab and line ends aside) or NULs. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (
      (code < 0x20 && code !== 9 && code !== 10 && code !== 13) ||
      code === 0x7f ||
      code === 0xfffd
    )
      controls++;
  }
  return controls > Math.max(8, sample.length * 0.01);
}

/** The first record of the head: the column headers. Throws 400 when there is none. */
export function readHeader(head: string, delimiter: string, complete: boolean): string[] {
  let records: string[][];
  try {
    records = parse(head, { ...csvOptions(delimiter), to: 1 });
  } catch (err) {
    if (!complete && /Quote Not Closed/i.test((err as Error).message))
      throw badRequest(
        `The header line is longer than ${HEAD_BYTES / 1024} KiB; is a quote left open?`,
      );
    throw badRequest(`The header line is not valid CSV: ${(err as Error).message}`);
  }
  const header = records[0]?.map((h) => h.trim()) ?? [];
  if (header.every((h) => h === ''))
    throw badRequest('The file has no header: its first line must name the columns');
  return header;
}
