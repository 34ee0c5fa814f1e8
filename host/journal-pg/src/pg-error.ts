import { JournalError } from '@dsh/journal';

/** What the database was asked to do when it failed, for the message. */
export interface PgErrorContext {
  /** A sentence fragment: `session s-1: cannot append`. */
  readonly action: string;
  /** The database as a person names it (the URL without its password). */
  readonly location: string;
}

/** Connection failures of node-postgres and Node's sockets: the database is down or unreachable. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * The one mapping of anything the database or its driver throws to `JournalError`: a
 * down or unreachable database names DSH_STORE / --store, a unique violation on an
 * event's (session, seq) is a `conflict`, a full disk is `no_space`, and everything
 * else is `unavailable` with the server's own message. A `JournalError` passes through.
 */
export function pgError(error: unknown, context: PgErrorContext): JournalError {
  if (error instanceof JournalError) return error;
  const { action, location } = context;
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (isConnectionLoss(code, message)) {
    return new JournalError(
      'unavailable',
      `${action}: the database ${location} is down or unreachable (${code || message}): ` +
        'start it, or point DSH_STORE / --store at a running one',
    );
  }
  switch (code) {
    case '23505':
      return new JournalError(
        'conflict',
        `${action}: another writer took these seqs first (${message})`,
      );
    case '53100':
      return new JournalError(
        'no_space',
        `${action}: the database ${location} is out of disk space`,
      );
    case '28P01':
    case '28000':
      return new JournalError(
        'unavailable',
        `${action}: the database ${location} refused the login (${message}): fix the user or ` +
          'password in DSH_STORE / --store',
      );
    case '3D000':
      return new JournalError(
        'unavailable',
        `${action}: ${message} at ${location}: create it (createdb) or fix DSH_STORE / --store`,
      );
    default:
      return new JournalError('unavailable', `${action}: the database ${location}: ${message}`);
  }
}

/** True when `error` means the connection to the database is gone (retrying later may work). */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  return isConnectionLoss(code, message);
}

function isConnectionLoss(code: string, message: string): boolean {
  // 08*: connection exceptions; 57P01..57P03: the server shuts down or is starting.
  return (
    connectionCodes.has(code) ||
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/** A connection string with its password replaced by `***`, fit for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database named by DSH_STORE / --store';
  }
}
