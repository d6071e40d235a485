import { parse } from 'csv-parse/browser/esm/sync';
import { useState } from 'preact/hooks';
import { ApiError, type FieldFault } from '../../api/client.js';
import type { ImportAnswer, ImportFile, NewThread } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { navigate } from '../../router.js';
import { dateKey, formatInZone, partsIn } from '../../time.js';
import './import.css';

/**
 * Import: a CSV file or a JSON array of threads, dropped or chosen, is checked by the server at
 * once (a dry run) and shown row by row with each row's faults beside it; Import then creates
 * every thread in one request (all or nothing) and opens the calendar on the first imported day.
 */

interface PreviewRow {
  row: number;
  thread: string;
  account: string;
  when: string;
  text: string;
}

interface Loaded {
  name: string;
  file: ImportFile;
  rows: PreviewRow[];
}

type Check = { state: 'checking' } | { state: 'ok'; answer: ImportAnswer } | { state: 'faults'; faults: FieldFault[] } | { state: 'failed'; message: string };

const ROW_PATH = /^rows\.(\d+)(?:\.(.*))?$/;

/** The rows as the preview shows them; the server's reading is the one that counts. */
function readFile(name: string, text: string): Loaded {
  const json = name.toLowerCase().endsWith('.json') || text.trimStart().startsWith('[');
  if (json) {
    let rows: unknown;
    try {
      rows = JSON.parse(text);
    } catch {
      rows = null;
    }
    const list = Array.isArray(rows) ? (rows as NewThread[]) : [];
    return {
      name,
      // Not an array: sent as it is, for the server to say what is wrong with it.
      file: { rows: Array.isArray(rows) ? list : (rows as NewThread[]) },
      rows: list.map((body, row) => ({
        row,
        thread: `#${row + 1}`,
        account: String(body?.providerId ?? ''),
        when: body?.queue ? 'next free slot' : (body?.scheduleAt ?? 'draft'),
        text: Array.isArray(body?.posts) ? body.posts.map((p) => String(p?.text ?? '')).join(' ⏎ ') : '',
      })),
    };
  }
  let records: string[][] = [];
  try {
    records = parse(text, { bom: true, record_delimiter: ['\r\n', '\n'], relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch {
    // The server says where the file cannot be read.
  }
  const [header = [], ...data] = records;
  const at = (record: string[], column: string) => record[header.findIndex((h) => h.trim() === column)] ?? '';
  return {
    name,
    file: { csv: text },
    rows: data.map((record, row) => ({
      row,
      thread: at(record, 'thread'),
      account: at(record, 'providerId'),
      when: at(record, 'scheduleAt') === 'queue' ? 'next free slot' : at(record, 'scheduleAt'),
      text: at(record, 'text'),
    })),
  };
}

export function ImportPage() {
  const { api, account } = useApp();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [check, setCheck] = useState<Check | null>(null);
  const [importing, setImporting] = useState(false);
  const [dragging, setDragging] = useState(false);

  const fail = (err: unknown): Check =>
    err instanceof ApiError && err.errors.length > 0
      ? { state: 'faults', faults: err.errors }
      : { state: 'failed', message: err instanceof ApiError ? err.detail : String(err) };

  const open = async (file: File) => {
    const next = readFile(file.name, await file.text());
    setLoaded(next);
    setCheck({ state: 'checking' });
    try {
      setCheck({ state: 'ok', answer: await api.threads.import(next.file, true) });
    } catch (err) {
      setCheck(fail(err));
    }
  };

  const importAll = async () => {
    if (!loaded) return;
    setImporting(true);
    try {
      const answer = await api.threads.import(loaded.file, false);
      const days = answer.threads.flatMap((t) => (t.scheduledAt ? [dateKey(partsIn(t.scheduledAt, account.timezone))] : [])).sort();
      navigate(days[0] ? `/calendar?date=${days[0]}` : '/calendar');
    } catch (err) {
      setCheck(fail(err));
      setImporting(false);
    }
  };

  const faults = check?.state === 'faults' ? check.faults : [];
  const rowFaults = new Map<number, FieldFault[]>();
  const general: FieldFault[] = [];
  for (const fault of faults) {
    const match = ROW_PATH.exec(fault.path);
    if (match) rowFaults.set(Number(match[1]), [...(rowFaults.get(Number(match[1])) ?? []), fault]);
    else general.push(fault);
  }
  const planned = new Map(check?.state === 'ok' ? check.answer.threads.map((t) => [t.row, t]) : []);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer?.files[0];
    if (file) void open(file);
  };

  return (
    <section class="import-page">
      <h1>Import</h1>
      <p class="lead">
        Up to 1,000 threads at once, from a CSV file (columns <code>thread</code>, <code>providerId</code>, <code>scheduleAt</code>, <code>text</code>,{' '}
        <code>media</code>, <code>altText</code>, <code>topic</code>, <code>tags</code>, <code>autoRepostHours</code>, <code>repeat</code> such as{' '}
        <code>2 weeks until 2027-06-30</code>; one row per post) or a JSON array of threads. Everything is checked first; nothing is created until every row is
        right.
      </p>
      <label
        class={dragging ? 'drop dragging' : 'drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span>Drop a .csv or .json file here, or choose one</span>
        <input
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void open(file);
          }}
        />
      </label>

      {loaded && (
        <div class="result" aria-busy={check?.state === 'checking' ? 'true' : undefined}>
          <p class="summary" role="status">
            {check?.state === 'checking' && `Checking ${loaded.name}…`}
            {check?.state === 'ok' && `${loaded.name}: ${check.answer.created} threads, ready to import.`}
            {check?.state === 'faults' && `${loaded.name}: ${faults.length} ${faults.length === 1 ? 'fault' : 'faults'} to fix; nothing was imported.`}
            {check?.state === 'failed' && check.message}
          </p>
          {general.length > 0 && (
            <ul class="faults general" aria-label="Faults of the file">
              {general.map((f) => (
                <li key={`${f.path}:${f.message}`}>
                  {f.path && <code>{f.path}</code>} {f.message}
                </li>
              ))}
            </ul>
          )}
          {loaded.rows.length > 0 && (
            <div class="table-scroll">
              <table class="preview">
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Thread</th>
                    <th scope="col">When</th>
                    <th scope="col">Text</th>
                    <th scope="col">Check</th>
                  </tr>
                </thead>
                <tbody>
                  {loaded.rows.map((r) => {
                    const own = rowFaults.get(r.row) ?? [];
                    const plan = planned.get(r.row);
                    return (
                      <tr key={r.row} class={own.length ? 'has-faults' : undefined} data-row={r.row}>
                        <td>{r.row}</td>
                        <td>{r.thread}</td>
                        <td>{r.when || 'draft'}</td>
                        <td class="text">{r.text}</td>
                        <td>
                          {own.length > 0 ? (
                            <ul class="faults">
                              {own.map((f) => (
                                <li key={`${f.path}:${f.message}`}>
                                  <code>{ROW_PATH.exec(f.path)?.[2] ?? 'row'}</code> {f.message}
                                </li>
                              ))}
                            </ul>
                          ) : plan ? (
                            plan.scheduledAt ? (
                              `Scheduled ${formatInZone(plan.scheduledAt, account.timezone, { dateStyle: 'medium', timeStyle: 'short' })}`
                            ) : (
                              'Draft'
                            )
                          ) : check?.state === 'ok' ? (
                            'OK'
                          ) : (
                            ''
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <div class="actions">
            <button type="button" class="primary" disabled={check?.state !== 'ok' || importing} onClick={importAll}>
              {importing ? 'Importing…' : check?.state === 'ok' ? `Import ${check.answer.created} threads` : 'Import'}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
