import { Code, ConnectError } from '@connectrpc/connect';
import { JournalError, type JournalErrorKind } from '@dsh/journal';
import { describe, expect, it } from 'vitest';
import { toConnectError } from '../src/index.js';

/** An error of the shape the agent runtime's `AgentError` has. */
function agentError(kind: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'AgentError', kind });
}

describe('toConnectError()', () => {
  const journalKinds: [JournalErrorKind, Code][] = [
    ['invalid_argument', Code.InvalidArgument],
    ['not_found', Code.NotFound],
    ['corrupt', Code.FailedPrecondition],
    ['read_only', Code.FailedPrecondition],
    ['exists', Code.AlreadyExists],
    ['conflict', Code.Aborted],
    ['no_space', Code.ResourceExhausted],
    ['unavailable', Code.Unavailable],
    ['too_large', Code.InvalidArgument],
    ['too_slow', Code.ResourceExhausted],
  ];
  it.each(journalKinds)('maps the journal error %s to %s, keeping its message', (kind, code) => {
    const mapped = toConnectError(new JournalError(kind, `why ${kind}`), () => {});
    expect(mapped.code).toBe(code);
    expect(mapped.rawMessage).toBe(`why ${kind}`);
  });

  it.each([
    ['invalid_argument', Code.InvalidArgument],
    ['failed_precondition', Code.FailedPrecondition],
  ])('maps an agent refusal %s to %s', (kind, code) => {
    const mapped = toConnectError(agentError(kind, 'no such approval'), () => {});
    expect(mapped).toMatchObject({ code, rawMessage: 'no such approval' });
  });

  it('passes a ConnectError through unchanged', () => {
    const error = new ConnectError('no token', Code.Unauthenticated);
    expect(toConnectError(error, () => {})).toBe(error);
  });

  it.each([
    ['a plain Error', new Error('/secret/path exploded')],
    ['an agent error of an unknown kind', agentError('boom', '/secret/path')],
    ['a thrown string', '/secret/path'],
  ])('hides %s as internal and logs the cause', (_name, error) => {
    const logged: unknown[] = [];
    const mapped = toConnectError(error, (cause) => logged.push(cause));
    expect(mapped.code).toBe(Code.Internal);
    expect(mapped.rawMessage).not.toContain('/secret/path');
    expect(logged).toEqual([error]);
  });
});
