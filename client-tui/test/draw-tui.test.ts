import { createCardCache } from '@dsh/card-models';
import { describe, expect, it } from 'vitest';
import { createTuiRegistry } from '../src/index.js';
import { composerMaxRows, drawTui } from '../src/ui/draw-tui.js';
import { frameRowText } from '../src/ui/frame.js';
import { prepareDraw } from '../src/ui/prepare-draw.js';
import { approval, setup } from './key-state.js';

const drawContext = (cols: number, rows: number) => ({
  cols,
  rows,
  hostLabel: 'host',
  now: 0,
  registry: createTuiRegistry(),
  cards: createCardCache(),
});
const draw = (state: ReturnType<typeof setup>['state'], cols = 80, rows = 24) => {
  const context = drawContext(cols, rows);
  prepareDraw(state, context);
  return drawTui(state, context);
};
const rowsOf = (frame: ReturnType<typeof draw>) =>
  Array.from({ length: frame.rows }, (_, y) => frameRowText(frame, y).trimEnd());

describe('drawTui()', () => {
  it('the composer grows with its lines up to 8 rows, then scrolls to the cursor', () => {
    const t = setup();
    t.state.composer.insert('one\ntwo');
    let rows = rowsOf(draw(t.state));
    expect(rows.slice(21, 23)).toEqual(['› one', '  two']);
    t.state.composer.insert(Array.from({ length: 10 }, (_, i) => `\nline ${i + 1}`).join(''));
    const frame = draw(t.state);
    rows = rowsOf(frame);
    const composer = rows.slice(23 - composerMaxRows, 23);
    expect(composer).toEqual(['  line 3', ...[4, 5, 6, 7, 8, 9, 10].map((n) => `  line ${n}`)]);
    expect(frame.cursor).toEqual({ x: 9, y: 22 });
    expect(rows[23]).toContain('C-j newline');
  });

  it('the prompt bar names its keys above the composer', () => {
    const t = setup({ pending: [approval], running: true, focus: 'prompt' });
    const rows = rowsOf(draw(t.state));
    expect(rows.slice(20, 23)).toEqual([
      'Allow bash? [y] once  [a] for session  [n] deny  [Esc] later',
      '  runs a shell command',
      '› i or Esc to compose',
    ]);
  });

  it('below 60 columns there is no session list and it cannot keep focus', () => {
    const t = setup({ focus: 'sessions' });
    const rows = rowsOf(draw(t.state, 50, 20));
    expect(rows[1]).not.toContain('│');
    expect(t.state.listShown).toBe(false);
    expect(t.state.focus).toBe('conversation');
  });

  it('only reads the state: prepareDraw, not drawTui, moves focus off a hidden list', () => {
    const t = setup({ focus: 'sessions' });
    const before = rowsOf(drawTui(t.state, drawContext(50, 20)));
    expect([t.state.listShown, t.state.focus]).toEqual([true, 'sessions']);
    expect(rowsOf(drawTui(t.state, drawContext(50, 20)))).toEqual(before);
    prepareDraw(t.state, drawContext(50, 20));
    expect([t.state.listShown, t.state.focus]).toEqual([false, 'conversation']);
  });

  it('the header says running only while the streams are live', () => {
    const live = setup({ running: true });
    expect(rowsOf(draw(live.state))[0]).toContain('● running');
    const down = setup({
      running: true,
      connection: { kind: 'reconnecting', attempt: 1, error: 'down', retryInMs: 1000 },
    });
    const header = rowsOf(draw(down.state))[0];
    expect(header).toContain('○ disconnected');
    expect(header).not.toContain('running');
  });
});
