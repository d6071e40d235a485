import { CsvError, parse } from 'csv-parse/sync';
import { type FieldFault, ValidationError } from '../../errors/index.js';
import type { RepeatInput } from '../threads/repeat.js';
import type { CreateThreadInput } from '../threads/threads.js';
import { IMPORT_MAX_THREADS, type ImportSource } from './import.js';

/**
 * The CSV form of an import (decisions.md "Import"; docs/decisions.md "Import (implementation)"):
 * a header row naming columns, then one row per post; rows sharing `thread` form one thread, in
 * file order. Each thread becomes a Create Post body, checked as Create Post checks it; faults
 * name the CSV row: `rows.N.column`, N counting the data rows from 0 (the header is not a row).
 * Parsed by csv-parse (RFC 4180 quoting). Nothing in a cell is ever evaluated: a formula-looking
 * cell (`=HYPERLINK(…)`) is text like any other.
 */

const COLUMNS = ['thread', 'providerId', 'scheduleAt', 'text', 'media', 'altText', 'topic', 'tags', 'autoRepostHours', 'repeat'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: Column[] = ['providerId', 'text'];
/** Columns that belong to the thread: later rows of a thread leave them empty or repeat them. */
const THREAD_COLUMNS: Column[] = ['providerId', 'scheduleAt', 'tags', 'autoRepostHours', 'repeat'];
/** A cell longer than any post could be (25 posts of 3,000 bytes and their media). */
const MAX_RECORD_CHARS = 1_000_000;
const BOM = '\uFEFF';

type Row = Map<Column, string>;

/** The import's Create Post bodies from a CSV text, or a ValidationError with every fault. */
export function readImportCsv(text: string): ImportSource {
  const records = parseRecords(text.startsWith(BOM) ? text.slice(1) : text);
  const [header, ...data] = records;
  if (!header) throw new ValidationError({ path: 'header', message: 'the file is empty: a header row naming the columns comes first' });
  const faults: FieldFault[] = [];
  const columns = readHeader(header, faults);
  const rows: Row[] = data.map((record, r) => {
    if (record.length !== header.length)
      faults.push({ path: `rows.${r}`, message: `has ${record.length} fields; the header has ${header.length} (a quote left open, or a comma too many?)` });
    const row: Row = new Map();
    record.forEach((cell, c) => {
      const column = columns[c];
      if (column === undefined) return;
      if (cell.includes(BOM)) faults.push({ path: `rows.${r}.${column}`, message: 'holds a byte order mark (U+FEFF): save the file again as UTF-8' });
      if (cell.includes('\u0000')) faults.push({ path: `rows.${r}.${column}`, message: 'must not contain the NUL character (U+0000)' });
      row.set(column, cell);
    });
    return row;
  });
  if (rows.length === 0) faults.push({ path: 'rows', message: 'the file has a header and no rows' });
  const threads = groupThreads(rows);
  if (threads.length > IMPORT_MAX_THREADS)
    faults.push({ path: 'rows', message: `has ${threads.length} threads; an import takes at most ${IMPORT_MAX_THREADS}` });
  if (faults.length) throw new ValidationError(faults);
  // What reads as threads goes on to Create Post's rules; its own faults come in the same answer.
  const bodies = threads.map((members) => threadBody(rows, members, faults));
  return { bodies, rows: threads.map((members) => members[0]!), locate: (index, fault) => locateCsv(threads[index]!, fault), faults };
}

function parseRecords(text: string): string[][] {
  try {
    // Mixed line endings are accepted: a record ends at CRLF or LF (a lone CR stays in its cell).
    return parse(text, { record_delimiter: ['\r\n', '\n'], relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const { lines, records } = err as CsvError & { lines?: number; records?: number };
    const where = typeof records === 'number' && records > 0 ? `rows.${records - 1}` : 'header';
    throw new ValidationError({ path: where, message: `the CSV cannot be read at line ${lines ?? '?'}: ${csvMessage(err)}` });
  }
}

function csvMessage(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted cell is never closed (an odd number of double quotes)';
    case 'INVALID_OPENING_QUOTE':
      return 'a double quote inside a cell that does not start with one (quote the whole cell, and write each quote in it twice)';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text follows a closing double quote (write "" for a quote inside a quoted cell)';
    case 'CSV_MAX_RECORD_SIZE':
      return `a row is longer than ${MAX_RECORD_CHARS} characters`;
    default:
      return err.message;
  }
}

/** Each header cell's column (undefined: a fault said already). */
function readHeader(header: string[], faults: FieldFault[]): Array<Column | undefined> {
  const seen = new Set<Column>();
  const unknown: string[] = [];
  const columns = header.map((raw) => {
    const name = raw.trim();
    const column = COLUMNS.find((c) => c === name);
    if (!column) {
      unknown.push(name);
      return undefined;
    }
    if (seen.has(column)) faults.push({ path: `header.${column}`, message: 'is named twice' });
    seen.add(column);
    return column;
  });
  if (unknown.length) {
    const named = unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40)));
    const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
    faults.push({ path: 'header', message: `names unknown columns ${named.join(', ')}${more}; the columns are ${COLUMNS.join(', ')}` });
  }
  for (const column of REQUIRED) if (!seen.has(column)) faults.push({ path: 'header', message: `must name the column ${column}` });
  return columns;
}

/** The rows of each thread, in file order, threads in the order of their first row. */
function groupThreads(rows: Row[]): number[][] {
  const byLabel = new Map<string, number[]>();
  const threads: number[][] = [];
  rows.forEach((row, r) => {
    const label = (row.get('thread') ?? '').trim();
    const members = label === '' ? undefined : byLabel.get(label);
    if (members) {
      members.push(r);
      return;
    }
    const fresh = [r];
    threads.push(fresh);
    if (label !== '') byLabel.set(label, fresh);
  });
  return threads;
}

/** The Create Post body of one thread's rows; faults of what no Create Post rule sees. */
function threadBody(rows: Row[], members: number[], faults: FieldFault[]): CreateThreadInput {
  const first = rows[members[0]!]!;
  const cell = (row: Row, column: Column) => row.get(column) ?? '';
  for (const r of members.slice(1)) {
    for (const column of THREAD_COLUMNS) {
      const value = cell(rows[r]!, column).trim();
      if (value === '' || value === cell(first, column).trim()) continue;
      const what = column === 'providerId' ? 'account' : column;
      faults.push({
        path: `rows.${r}.${column}`,
        message: `differs from row ${members[0]} of the same thread ("${cell(first, 'thread').trim()}"): a thread has one ${what}; leave it empty after the first row`,
      });
    }
  }
  const body: CreateThreadInput = {
    providerId: cell(first, 'providerId').trim(),
    posts: members.map((r) => postOf(rows[r]!, r, faults)),
  };
  const scheduleAt = cell(first, 'scheduleAt').trim();
  if (scheduleAt === 'queue') body.queue = true;
  else if (scheduleAt !== '') body.scheduleAt = scheduleAt;
  const tags = cell(first, 'tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length) body.tags = tags;
  const hours = cell(first, 'autoRepostHours').trim();
  if (hours !== '') body.autoRepost = { enabled: true, delays: [hours] };
  const repeat = cell(first, 'repeat').trim();
  if (repeat !== '') {
    const rule = readRepeatCell(repeat, members[0]!, faults);
    if (rule) body.repeat = rule;
  }
  return body;
}

const REPEAT_FORM = 'EVERY UNIT [until YYYY-MM-DD] [count N], such as "1 week", "2 weeks until 2027-06-30" or "1 month count 12"';
const WHOLE = /^\d+$/;

/**
 * A `repeat` cell (`2 weeks until 2027-06-30`) as Create Post's `repeat`, or a fault at
 * `rows.N.repeat` when it does not read as one. Only the form is checked here: the ranges
 * (every 1-365, count 2-100, the unit, a real date, not on a draft) are Create Post's own rules,
 * their faults mapped back to the cell by locateCsv.
 */
function readRepeatCell(value: string, r: number, faults: FieldFault[]): RepeatInput | null {
  const [every, unit, ...rest] = value.toLowerCase().split(/\s+/);
  const fault = (message: string) => {
    faults.push({ path: `rows.${r}.repeat`, message });
    return null;
  };
  if (every === undefined || unit === undefined || rest.length % 2 !== 0) return fault(`reads as ${REPEAT_FORM}; "${value.slice(0, 60)}" does not`);
  if (!WHOLE.test(every)) return fault('every: must be a whole number from 1 to 365');
  const singular = unit.endsWith('s') ? unit.slice(0, -1) : unit;
  const rule: RepeatInput = { every: Number(every), unit: ['day', 'week', 'month'].includes(singular) ? singular : unit };
  for (let i = 0; i < rest.length; i += 2) {
    const [key, given] = [rest[i]!, rest[i + 1]!];
    if (key === 'until' && rule.until === undefined) rule.until = given;
    else if (key === 'count' && rule.count === undefined) {
      if (!WHOLE.test(given)) return fault('count: must be a whole number from 2 to 100');
      rule.count = Number(given);
    } else return fault(`reads as ${REPEAT_FORM}; "${key}" is not expected there`);
  }
  return rule;
}

function postOf(row: Row, r: number, faults: FieldFault[]): CreateThreadInput['posts'][number] {
  const urls = (row.get('media') ?? '').split(/\s+/).filter((url) => url !== '');
  const alts = (row.get('altText') ?? '').trim() === '' ? [] : (row.get('altText') ?? '').split('|').map((alt) => alt.trim());
  if (alts.length > urls.length)
    faults.push({
      path: `rows.${r}.altText`,
      message: `has ${alts.length} alt texts for ${urls.length} media URLs (separate them with |, in the order of the URLs)`,
    });
  const topic = (row.get('topic') ?? '').trim();
  return {
    text: row.get('text') ?? '',
    ...(urls.length ? { media: urls.map((url, m) => ({ url, altText: alts[m] ? alts[m] : null })) } : {}),
    ...(topic ? { topic } : {}),
  };
}

/** A fault of a thread's body (`posts.2.media.1.url`) as its CSV row and column. */
function locateCsv(members: number[], fault: FieldFault): FieldFault {
  const segments = fault.path.split('.');
  const first = members[0]!;
  const [head, second, third, fourth, fifth] = segments;
  if (head === 'posts' && second !== undefined && /^\d+$/.test(second) && members[Number(second)] !== undefined) {
    const r = members[Number(second)]!;
    if (third === 'media' && fourth !== undefined) {
      const column = fifth === 'altText' ? 'altText' : 'media';
      return { path: `rows.${r}.${column}`, message: `${column === 'media' ? 'URL' : 'alt text'} ${Number(fourth) + 1}: ${fault.message}` };
    }
    const column = third === 'topic' || third === 'media' ? third : 'text';
    return { path: `rows.${r}.${column}`, message: fault.message };
  }
  const column: Record<string, Column> = {
    posts: 'thread',
    providerId: 'providerId',
    scheduleAt: 'scheduleAt',
    queue: 'scheduleAt',
    tags: 'tags',
    autoRepost: 'autoRepostHours',
  };
  // A repeat fault (`repeat.every`) is the cell's, the rule's part named in the message.
  if (head === 'repeat') return { path: `rows.${first}.repeat`, message: second === undefined ? fault.message : `${second}: ${fault.message}` };
  const named = head === undefined ? undefined : column[head];
  return { path: named ? `rows.${first}.${named}` : `rows.${first}`, message: fault.message };
}
