import type { AppContext } from '../context.js';
import type { AccountRow } from '../db/schema/index.js';
import { AppError, Faults, type FieldFault, NotFoundError, ValidationError } from '../errors/index.js';
import { holdsNul } from '../lib/text.js';
import { saveIdempotentResponse } from '../repos/idempotency.js';
import { isRecord } from './content-rules.js';
import { mediaOfPosts, mediaReach } from './media-reach.js';
import {
  type CheckedThread,
  type CreateTarget,
  type CreateThreadInput,
  checkCreateBody,
  claimIdempotency,
  createThreadFaults,
  findIdempotentReplay,
  readBeforeCreate,
  requestHash,
  writeThreads,
} from './threads.js';

/**
 * Bulk import (decisions.md "Import"): up to 1,000 Create Post bodies, each read and checked by
 * Create Post's own code (checkCreateBody, createThreadFaults) and saved by its writeThreads,
 * all in one transaction. The JSON form's bodies come as sent; the CSV form's are made from its
 * rows (import-csv.ts), and `locate` names a fault by the CSV row and column instead.
 */

export const IMPORT_MAX_THREADS = 1000;

/** What an import reads: one Create Post body per thread, and how to name their faults. */
export interface ImportSource {
  bodies: CreateThreadInput[];
  /** The row each body answers as (`threads[].row`): its index (JSON), its first CSV data row. */
  rows: number[];
  /** A fault of body `index` (its path from the body's root) as the answer names it. */
  locate(index: number, fault: FieldFault): FieldFault;
  /** Faults found reading the source (a CSV's), answered with the rows' own. */
  faults?: FieldFault[];
}

export interface ImportOptions {
  teamId?: string;
  dryRun: boolean;
  idempotencyKey?: string;
}

export interface ImportResult {
  created: number;
  threads: Array<{ row: number; threadId: string | null; status: 'scheduled' | 'draft'; scheduledAt: string | null }>;
}

/** A JSON import's rows: `rows.12.posts.0.text`. */
export function locateJsonRow(index: number, fault: FieldFault): FieldFault {
  return { path: fault.path ? `rows.${index}.${fault.path}` : `rows.${index}`, message: fault.message };
}

/** The body a row stands for: the import's teamId unless the row names its own. */
function withTeam(body: CreateThreadInput, teamId: string | undefined): CreateThreadInput {
  return body.teamId === undefined && teamId !== undefined ? { ...body, teamId } : body;
}

/** Thrown inside a dry run's transaction to roll it back, carrying the answer. */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run');
  }
}

export async function importThreads(ctx: AppContext, account: AccountRow, source: ImportSource, options: ImportOptions): Promise<ImportResult> {
  if (source.bodies.length > IMPORT_MAX_THREADS)
    throw new ValidationError({ path: 'rows', message: `has ${source.bodies.length} threads; an import takes at most ${IMPORT_MAX_THREADS}` });
  const bodies = source.bodies.map((body) => withTeam(body, options.teamId));
  const key = options.dryRun ? undefined : options.idempotencyKey;
  const hash = requestHash({ import: bodies });
  if (key) {
    const replay = await findIdempotentReplay<ImportResult>(ctx.db, account.id, key, hash, ctx.clock.now());
    if (replay) return replay;
  }
  const now = ctx.clock.now();
  const faults: FieldFault[] = [...(source.faults ?? [])];
  const targets = await readTargets(ctx, account, bodies, source, options.teamId, faults);
  // Every THREADS row's media hosts resolved at once, each host once.
  const reach = mediaReach(
    ctx,
    bodies.flatMap((body, i) => (targets[i]?.provider.kind === 'THREADS' ? mediaOfPosts(body.posts).map((m) => m.url) : [])),
  );
  const checked: CheckedThread[] = [];
  for (const [i, body] of bodies.entries()) {
    const target = targets[i];
    if (!target) {
      // The provider is not found (a fault already): the rules that need no network still speak.
      faults.push(...(await createThreadFaults(ctx, account, body)).map((fault) => source.locate(i, fault)));
      continue;
    }
    const rowFaults = new Faults();
    checked.push(await checkCreateBody(ctx, account, body, target, reach, now, rowFaults));
    faults.push(...rowFaults.list.map((fault) => source.locate(i, fault)));
  }
  if (faults.length) throw new ValidationError(faults);

  const write = async (): Promise<ImportResult> =>
    ctx.db.transaction().execute(async (trx) => {
      if (key) {
        const replay = await claimIdempotency<ImportResult>(trx, account.id, key, hash, now);
        if (replay) return replay;
      }
      const written = await writeThreads(trx, account, checked, now, (i, fault) => source.locate(i, fault));
      const result: ImportResult = {
        created: written.length,
        threads: written.map((t, i) => ({ row: source.rows[i]!, threadId: options.dryRun ? null : t.threadId, status: t.status, scheduledAt: t.scheduledAt })),
      };
      // Everything was checked and written as for real: the rollback undoes it (queue slots too).
      if (options.dryRun) throw new DryRunDone(result);
      if (key) await saveIdempotentResponse(trx, account.id, key, 201, result);
      return result;
    });
  try {
    const result = await write();
    if (result.threads.some((t) => t.scheduledAt)) ctx.scheduleSignal.ring();
    return result;
  } catch (err) {
    if (err instanceof DryRunDone) return err.result;
    throw err;
  }
}

/**
 * Each body's workspace, provider and auto-plug, read once per distinct team and provider. A
 * provider not found is a fault of its rows; a team the caller is not a member of is too, unless
 * it is the import's own `teamId` (then the import is 404, as Create Post would be).
 */
async function readTargets(
  ctx: AppContext,
  account: AccountRow,
  bodies: CreateThreadInput[],
  source: ImportSource,
  teamId: string | undefined,
  faults: FieldFault[],
) {
  const reads = new Map<string, Promise<CreateTarget | NotFoundError>>();
  const targets: Array<CreateTarget | undefined> = [];
  for (const [i, body] of bodies.entries()) {
    const lookup = `${body.teamId ?? ''}\u0000${body.providerId}`;
    if (!reads.has(lookup))
      reads.set(
        lookup,
        readOrNotFound(() => readBeforeCreate(ctx.db, account, body)),
      );
    const read = await reads.get(lookup)!;
    if (!(read instanceof NotFoundError)) {
      targets.push(read);
      continue;
    }
    targets.push(undefined);
    if (read.message.startsWith('Team ') && body.teamId === teamId) throw read;
    faults.push(source.locate(i, notFoundFault(read)));
  }
  return targets;
}

/** A row's team or provider that readBeforeCreate did not find, as a fault of the row. */
function notFoundFault(err: NotFoundError): FieldFault {
  return err.message.startsWith('Team ')
    ? { path: 'teamId', message: 'is not a team of yours' }
    : { path: 'providerId', message: 'is not a connected account of this workspace' };
}

async function readOrNotFound(read: () => Promise<CreateTarget>): Promise<CreateTarget | NotFoundError> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof NotFoundError) return err;
    throw err;
  }
}

/**
 * Every content fault of an import that has shape faults, named as the answer names them: Create
 * Post's rules (createThreadFaults) over the well-formed parts of each row.
 */
export async function importFaults(
  ctx: AppContext,
  account: AccountRow,
  bodies: unknown,
  teamId: string | undefined,
  locate = locateJsonRow,
): Promise<FieldFault[]> {
  // Too many rows: the import is refused whole; its rows are checked once it fits.
  if (!Array.isArray(bodies) || bodies.length > IMPORT_MAX_THREADS) return [];
  const faults: FieldFault[] = [];
  const reads = new Map<string, Promise<CreateTarget | NotFoundError>>();
  for (const [i, body] of bodies.entries()) {
    if (!isRecord(body)) continue;
    const row = body.teamId === undefined && teamId !== undefined ? { ...body, teamId } : body;
    // Create Post answers an unknown provider 404; an import says it of the row.
    if (
      typeof row.providerId === 'string' &&
      !holdsNul(row.providerId) &&
      (row.teamId === undefined || (typeof row.teamId === 'string' && !holdsNul(row.teamId)))
    ) {
      const named = { providerId: row.providerId, ...(row.teamId === undefined ? {} : { teamId: row.teamId as string }) };
      const lookup = `${named.teamId ?? ''}\u0000${named.providerId}`;
      if (!reads.has(lookup))
        reads.set(
          lookup,
          readOrNotFound(() => readBeforeCreate(ctx.db, account, named)),
        );
      const read = await reads.get(lookup)!;
      if (read instanceof NotFoundError) faults.push(locate(i, notFoundFault(read)));
    }
    try {
      faults.push(...(await createThreadFaults(ctx, account, row)).map((fault) => locate(i, fault)));
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
    }
  }
  return faults;
}
