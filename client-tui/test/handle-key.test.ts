import { describe, expect, it } from 'vitest';
import type { PendingItem } from '@dsh/card-models';
import { promptArmMs, syncPrompt } from '../src/ui/prompt-keys.js';
import type { Focus } from '../src/ui/tui-state.js';
import { approval, atPrompt, setup } from './key-state.js';

describe('handleKey(): the approval prompt', () => {
  it('takes focus when the composer is empty and names its keys', () => {
    const t = atPrompt();
    expect(t.state.focus).toBe('prompt');
  });

  it.each([
    ['y', 'allow'],
    ['a', 'session'],
    ['n', 'deny'],
  ])('%s answers %s', async (key, decision) => {
    const t = atPrompt();
    t.press(key);
    await Promise.resolve();
    expect(t.calls).toEqual([`approve ap1 ${decision}`]);
  });

  it('a word typed at the prompt goes to the composer and answers nothing', () => {
    const t = atPrompt();
    t.type('please');
    expect(t.calls).toEqual([]);
    expect(t.state.composer.text).toBe('please');
    expect(t.state.focus).toBe('input');
  });

  it('keys in the first moments after it takes focus are typing, even y/a/n', () => {
    const t = setup({ pending: [approval], running: true });
    syncPrompt(t.state, t.now());
    t.type('a');
    expect(t.calls).toEqual([]);
    expect(t.state.composer.text).toBe('a');
  });

  it.each([
    ['a draft in the composer', (t: ReturnType<typeof setup>) => t.state.composer.set('draft')],
    ['typing a moment ago', (t: ReturnType<typeof setup>) => (t.state.typedAt = t.now() - 200)],
    ['an item put off with Esc', (t: ReturnType<typeof setup>) => t.state.deferred.add('ap1')],
  ])('does not take focus from %s', (_name, arrange) => {
    const t = setup({ pending: [approval], running: true });
    arrange(t);
    syncPrompt(t.state, t.now());
    expect(t.state.focus).toBe('input');
  });

  it('Esc puts it off; Tab comes back to it, armed at once', async () => {
    const t = atPrompt();
    t.press('escape');
    expect(t.state.focus).toBe('input');
    expect(t.state.deferred.has('ap1')).toBe(true);
    t.press('tab');
    expect(t.state.focus).toBe('prompt');
    t.press('y');
    await Promise.resolve();
    expect(t.calls).toEqual(['approve ap1 allow']);
  });
});

describe('handleKey(): the question prompt', () => {
  const question = {
    kind: 'question',
    seq: 7,
    questionId: 'q1',
    callId: 'c2',
    questions: [
      {
        question: 'Which port?',
        header: 'Port',
        multiSelect: false,
        options: [
          { label: '8080', description: '' },
          { label: '3000', description: '' },
        ],
      },
    ],
  } as unknown as PendingItem;
  const atQuestion = () => {
    const t = setup({ pending: [question], running: true });
    syncPrompt(t.state, t.now());
    t.advance(promptArmMs + 1);
    return t;
  };

  it('a digit chooses its option', async () => {
    const t = atQuestion();
    t.press('2');
    await Promise.resolve();
    expect(t.calls).toEqual(['answer q1 [["3000"]]']);
  });

  it('t types an answer in the composer; Enter sends it', async () => {
    const t = atQuestion();
    t.press('t');
    expect(t.state.focus).toBe('input');
    expect(t.state.inputMode).toBe('answer');
    t.type('4242');
    t.press('return');
    await Promise.resolve();
    expect(t.calls).toEqual(['answer q1 [["4242"]]']);
    expect(t.state.inputMode).toBe('prompt');
  });

  it('x declines', async () => {
    const t = atQuestion();
    t.press('x');
    await Promise.resolve();
    expect(t.calls).toEqual(['answer q1 "cancelled"']);
  });
});

describe('handleKey(): nothing irreversible on a key in the wrong place', () => {
  it('letters in the conversation pane neither answer, stop nor send', () => {
    const t = setup({ pending: [approval], running: true, focus: 'conversation' });
    t.state.prompt = { id: 'ap1', armedAt: 0 };
    t.type('asynxt');
    expect(t.calls).toEqual([]);
  });

  it('Esc in the composer leaves it and stops nothing', () => {
    const t = setup({ running: true });
    t.press('escape');
    expect(t.calls).toEqual([]);
    expect(t.state.focus).toBe('conversation');
  });

  it('Ctrl+C stops only when pressed again within the confirmation window', async () => {
    const t = setup({ running: true });
    t.press('C-c');
    expect(t.state.confirm?.kind).toBe('stop');
    t.advance(4_000);
    t.press('C-c');
    await Promise.resolve();
    expect(t.calls).toEqual([]);
    t.advance(1_000);
    t.press('C-c');
    await Promise.resolve();
    expect(t.calls).toEqual(['stop']);
  });

  it('any other key cancels a pending Ctrl+C', () => {
    const t = setup({ running: true });
    t.press('C-c', 'j', 'C-c');
    expect(t.calls).toEqual([]);
    expect(t.state.confirm?.kind).toBe('stop');
  });

  it.each([
    ['q in the conversation', 'conversation', ['q']],
    ['C-d in an empty composer', 'input', ['C-d']],
  ] as const)('%s quits at once when idle, asks once while a turn runs', (_n, focus, keys) => {
    expect(setup({ focus }).press(...keys)).toEqual(['quit']);
    const busy = setup({ running: true, focus });
    expect(busy.press(...keys, 'n')).toEqual(['handled', 'handled']);
    expect(busy.press(...keys, 'y')).toEqual(['handled', 'quit']);
  });

  it('Ctrl+C twice quits when nothing runs', () => {
    expect(setup().press('C-c', 'C-c')).toEqual(['handled', 'quit']);
  });
});

describe('handleKey(): the composer', () => {
  it.each([
    ['Enter sends', ['h', 'i', 'return'], ['send queue hi']],
    ['C-s steers', ['h', 'i', 'C-s'], ['send steer hi']],
    ['/compact compacts', [...'/compact', 'return'], ['compact ']],
    ['/compact with an instruction', [...'/compact keep x', 'return'], ['compact keep x']],
    ['/compacted is a prompt', [...'/compacted', 'return'], ['send queue /compacted']],
    ['C-g opens the editor', ['C-g'], ['editor']],
    ['C-x C-e opens the editor', ['C-x', 'C-e'], ['editor']],
    ['C-x then another key does nothing', ['C-x', 'a'], []],
  ])('%s', async (_name, keys, calls) => {
    const t = setup();
    t.press(...keys);
    await Promise.resolve();
    expect(t.calls).toEqual(calls);
  });

  it('a failed send puts the text back before what was typed since', async () => {
    const t = setup({ sendError: 'connect ECONNREFUSED' });
    t.press('h', 'i', 'return', 'x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.state.composer.text).toBe('hi\nx');
    expect(t.state.flash?.text).toContain('not sent: connect ECONNREFUSED');
  });

  it.each([
    ['idle: it starts', false, 'compacting'],
    ['running: it waits for the next step', true, 'before the running turn'],
  ])('/compact says where the compaction stands (%s)', async (_name, running, text) => {
    const t = setup({ running });
    t.press(...'/compact', 'return');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.state.flash?.text).toContain(text);
    expect(t.state.composer.text).toBe('');
  });

  it('a refused /compact puts the text back', async () => {
    const t = setup({ sendError: 'session s1 has nothing to compact' });
    t.press(...'/compact', 'return');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.state.composer.text).toBe('/compact');
    expect(t.state.flash?.text).toContain('not compacted: session s1 has nothing to compact');
  });

  it('Ctrl+J adds a line instead of sending', () => {
    const t = setup();
    t.press('a', 'linefeed', 'b');
    expect(t.calls).toEqual([]);
    expect(t.state.composer.text).toBe('a\nb');
  });
});

describe('handleKey(): focus order', () => {
  it('Tab skips the session list when it is not drawn', () => {
    const t = setup();
    t.state.listShown = false;
    const seen = new Set<Focus>();
    for (let i = 0; i < 6; i++) {
      t.press('tab');
      seen.add(t.state.focus);
    }
    expect([...seen].sort()).toEqual(['conversation', 'input']);
  });
});
