import { describe, expect, it } from 'vitest';
import { plainText } from '../src/index.js';
import { flashMs } from '../src/ui/key-actions.js';
import { isLive, noteReconnects, statusLine } from '../src/ui/status-line.js';
import { setup } from './key-state.js';

describe('statusLine()', () => {
  it('a message shows until it expires, by the clock alone', () => {
    const t = setup();
    t.state.flash = { text: 'allowed bash', error: false, until: t.now() + flashMs.ok };
    expect(plainText(statusLine(t.state, t.now(), 80))).toContain('allowed bash');
    expect(plainText(statusLine(t.state, t.now() + flashMs.ok + 1, 80))).not.toContain('allowed');
  });

  it('a message and the connection trouble both fit the row', () => {
    const t = setup({
      connection: {
        kind: 'reconnecting',
        attempt: 2,
        error: '[unavailable] connect ECONNREFUSED 127.0.0.1:7420',
        retryInMs: 4_000,
      },
    });
    t.state.flash = { text: 'not sent: ECONNREFUSED', error: true, until: t.now() + 1_000 };
    const text = plainText(statusLine(t.state, t.now(), 80));
    expect(text).toContain('disconnected');
    expect(text).toContain('not sent: ECONNREFUSED');
    expect(isLive(t.state)).toBe(false);
  });

  it('the reconnect wait counts down', () => {
    const t = setup({
      connection: { kind: 'reconnecting', attempt: 1, error: 'down', retryInMs: 5_000 },
    });
    noteReconnects(t.state, t.now());
    expect(plainText(statusLine(t.state, t.now(), 80))).toContain('reconnecting in 5s');
    expect(plainText(statusLine(t.state, t.now() + 2_500, 80))).toContain('reconnecting in 3s');
    // A later change of the streams keeps the time the state arrived.
    noteReconnects(t.state, t.now() + 2_000);
    expect(plainText(statusLine(t.state, t.now() + 4_500, 80))).toContain('reconnecting in 1s');
  });

  it('drawing alone notes nothing: the wait shows whole until the state is noted', () => {
    const t = setup({
      connection: { kind: 'reconnecting', attempt: 1, error: 'down', retryInMs: 5_000 },
    });
    expect(plainText(statusLine(t.state, t.now(), 80))).toContain('reconnecting in 5s');
    expect(plainText(statusLine(t.state, t.now() + 2_500, 80))).toContain('reconnecting in 5s');
    expect(t.state.reconnectSince.size).toBe(0);
  });

  it.each([
    ['stop', 'Press Ctrl+C again to stop'],
    ['quit', 'Press Ctrl+C again to quit'],
    ['quit-running', 'Quit? [y] quit'],
  ] as const)('the %s confirmation says which key confirms', (kind, text) => {
    const t = setup({ running: true });
    t.state.confirm = { kind, until: t.now() + 1_000 };
    expect(plainText(statusLine(t.state, t.now(), 80))).toContain(text);
    if (kind !== 'quit-running') {
      expect(plainText(statusLine(t.state, t.now() + 2_000, 80))).not.toContain('Ctrl+C again');
    }
  });
});
