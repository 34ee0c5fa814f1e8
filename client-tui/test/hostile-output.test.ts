/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
import { describe, expect, it } from 'vitest';
import { seg, toSgr, type StyledLine } from '../src/index.js';
import {
  agentError,
  assistantMessage,
  scenarioByName,
  toolCall,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { drawOnVirtualScreen, fixtureItems, payloadItems } from './render-fixture.js';

/** Every escape sequence in `raw` (CSI, OSC/DCS/APC strings, two-byte escapes). */
function escapeSequences(raw: string): string[] {
  return (
    raw.match(
      /\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x20-\x2f]*[\x30-\x7e])/g,
    ) ?? []
  );
}

// What the terminal writer sends to draw a frame: colours (SGR), cursor addressing, cursor
// visibility and erasing a blank row end. Nothing else may appear while drawing tool output.
const allowed = [
  /^\x1b\[[\d;]*m$/,
  /^\x1b\[\d*(?:;\d*)?H$/,
  /^\x1b\[\d*[ABCDG]$/,
  /^\x1b\[\?25[hl]$/,
  /^\x1b\[K$/,
  /^\x1b[78]$/,
];

/** The raw tool output of the hostile fixture, shown unreplayed by Generic cards. */
function hostileText(): string {
  const payload = scenarioByName('hostile-output')?.payloads.find(
    (p) => p.case === 'toolResult' && p.value.callId === 'call_hostile_cat',
  );
  if (payload?.case !== 'toolResult') throw new Error('hostile fixture changed');
  const block = payload.value.content[0]?.block;
  return block?.case === 'text' ? block.value.text : '';
}

// The same bytes where no emulator replays them: a person's message, an unknown tool's
// arguments, output and error, an agent error and an extension event.
const genericPayloads = () => {
  const raw = hostileText();
  return [
    userMessage(raw),
    turnStart(1),
    assistantMessage({ turn: 1 }, [raw]),
    toolCall('call_generic_hostile', 'mcp__evil', raw),
    toolResult('call_generic_hostile', raw),
    toolCall('call_generic_error', 'mcp__evil', { note: 'x' }),
    toolResult('call_generic_error', raw, { error: { name: raw, code: raw, message: raw } }),
    agentError(raw, raw),
    turnEnd(1),
  ];
};

function hostileLines(mode: 'conversation' | 'details'): StyledLine[] {
  const items = [...fixtureItems('hostile-output', 78), ...payloadItems(genericPayloads(), 78)];
  return items.flatMap((item) =>
    (mode === 'conversation' ? item.lines : item.details(78)).map((line) => [seg('  '), ...line]),
  );
}

describe('hostile tool output through blessed', () => {
  it.each(['conversation', 'details'] as const)(
    '%s: only styling escape sequences reach the terminal',
    async (mode) => {
      const { raw, rows } = await drawOnVirtualScreen(hostileLines(mode), 80);
      const sequences = escapeSequences(raw);
      expect(sequences.length).toBeGreaterThan(0);
      const foreign = [
        ...new Set(sequences.filter((sequence) => !allowed.some((re) => re.test(sequence)))),
      ];
      expect(foreign).toEqual([]);
      // No OSC at all (titles, OSC 52 clipboard, OSC 8 links), no BEL, no screen clears or resets.
      expect(raw).not.toMatch(/\x1b\]|\x07|\x1bc|\x1b\[[23]J|\x9b|\x9d/);
      expect(raw).not.toContain('cm0gLXJmIH4vLnNzaA=='); // the OSC 52 payload
      expect(raw).not.toContain('evil.example/phish'); // the OSC 8 target
      // Colours from the tool survive as SGR: red, and 256-colour orange.
      const text = rows.join('\n');
      expect(text).toContain('red and bold orange (allowed colours)');
      // Nothing of the removed sequences is left on screen either.
      for (const fragment of [']0;', ']52;', ']8;', '[2J', '[10;5H', '[3J', 'pwned window title']) {
        expect(text).not.toContain(fragment);
      }
      expect(raw).toMatch(/\x1b\[[\d;]*38;5;214[\d;]*m/);
    },
  );

  it.each(['conversation', 'details'] as const)(
    '%s: the content given to blessed holds SGR only',
    (mode) => {
      const content = hostileLines(mode)
        .map((line) => toSgr(line))
        .join('\n');
      const sequences = escapeSequences(content);
      expect(sequences.filter((sequence) => !/^\x1b\[[\d;]*m$/.test(sequence))).toEqual([]);
      expect(content).not.toMatch(/[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]/);
    },
  );

  it('in 16-colour mode, 256-colour output is mapped to the 16 ANSI colours', async () => {
    const { raw } = await drawOnVirtualScreen(hostileLines('conversation'), 80, 16);
    expect(raw).not.toMatch(/[34]8;[25];/);
    expect(raw).toMatch(/\x1b\[[\d;]*(?:3[0-7]|9[0-7])[\d;]*m/);
  });
});
