import { DataDirBusyError } from '../db/pglite/data-dir-lock.js';
import { AppError, ConfigError } from '../errors/index.js';

/** How a failed command is told: one line for people, a code for scripts (--json). */

export class CliUsageError extends Error {}

/** A command the running server carried out and refused: its code and message, as the server saw them. */
export class RemoteCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorCode(err: unknown): string {
  if (err instanceof RemoteCommandError) return err.code;
  if (err instanceof DataDirBusyError) return 'DATA_DIR_BUSY';
  if (err instanceof ConfigError) return 'INVALID_CONFIG';
  if (err instanceof CliUsageError || (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')))
    return 'USAGE';
  if (err instanceof AppError) return err.code;
  return 'INTERNAL';
}

export function describe(err: unknown): string {
  if (err instanceof DataDirBusyError || err instanceof ConfigError || err instanceof CliUsageError || err instanceof RemoteCommandError) return err.message;
  if (err instanceof AppError) return err.message;
  if (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) return err.message;
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}
