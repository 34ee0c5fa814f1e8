import { createCardCache, createConversation } from '@dsh/card-models';
import { events, fixtureCwd, fixtureHome, scenarioByName, type Payload } from '@dsh/fixtures';
import {
  createConversationRenderer,
  createTuiRegistry,
  type ConversationItem,
  type StyledLine,
} from '../src/index.js';
import { createFrame, putLines } from '../src/ui/frame.js';
import { createTerminalWriter } from '../src/ui/terminal-writer.js';
import { styledDump } from './styled-dump.js';
import { createVirtualTerminal, type VirtualTerminal } from './virtual-terminal.js';

/** The conversation items of a fixture scenario, rendered at `width`. */
export function fixtureItems(name: string, width: number): ConversationItem[] {
  const scenario = scenarioByName(name);
  if (!scenario) throw new Error(`no fixture scenario ${name}`);
  return payloadItems(scenario.payloads, width, { cwd: scenario.cwd, home: scenario.home });
}

/** The conversation items of raw event payloads, rendered at `width`. */
export function payloadItems(
  payloads: readonly Payload[],
  width: number,
  facts = { cwd: fixtureCwd, home: fixtureHome },
): ConversationItem[] {
  const snapshot = createConversation().apply({ kind: 'replace', events: events(payloads) });
  const renderer = createConversationRenderer({
    registry: createTuiRegistry(),
    card: { facts, cards: createCardCache() },
  });
  return renderer.render(snapshot, width);
}

/**
 * Draws lines on a virtual terminal `cols` wide the way the client draws every pane (a
 * frame of glyph cells written by the terminal writer) and returns the screen rows and
 * the raw bytes written.
 */
export async function drawOnVirtualScreen(
  lines: readonly StyledLine[],
  cols: number,
  colorDepth: 16 | 256 = 256,
): Promise<{ rows: string[]; styled: string; raw: string; vt: VirtualTerminal }> {
  const height = Math.max(1, lines.length);
  const vt = createVirtualTerminal(cols, height);
  const frame = createFrame(cols, height);
  putLines(frame, 0, 0, cols, height, lines);
  createTerminalWriter((text) => vt.output.write(text), colorDepth).draw(frame);
  await vt.settle();
  const rows = vt.lines();
  const styled = styledDump(vt.terminal);
  const raw = vt.raw;
  vt.dispose();
  return { rows, styled, raw, vt };
}
