import { createCardCache, createConversation } from '@dsh/card-models';
import { events, fixtureCwd, fixtureHome, scenarioByName, type Payload } from '@dsh/fixtures';
import blessed from 'reblessed';
import {
  createConversationRenderer,
  createTuiRegistry,
  toSgr,
  type ConversationItem,
  type StyledLine,
} from '../src/index.js';
import { createTuiScreen } from '../src/ui/create-screen.js';
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
 * Draws lines through a reblessed box on a virtual terminal `cols` wide (as the
 * conversation pane does: SGR content, tags off) and returns the screen rows and the raw
 * bytes written while drawing them.
 */
export async function drawOnVirtualScreen(
  lines: readonly StyledLine[],
  cols: number,
  colorDepth: 16 | 256 = 256,
): Promise<{ rows: string[]; raw: string; vt: VirtualTerminal }> {
  const height = Math.max(1, lines.length);
  const vt = createVirtualTerminal(cols, height);
  const screen = createTuiScreen({ input: vt.input, output: vt.output, colorDepth, mouse: false });
  const box = blessed.box({
    parent: screen,
    top: 0,
    left: 0,
    width: cols,
    height,
    tags: false,
    wrap: false,
  });
  screen.render();
  await vt.settle();
  vt.raw = '';
  box.setContent(lines.map(toSgr).join('\n'));
  screen.render();
  await vt.settle();
  const rows = vt.lines();
  const raw = vt.raw;
  screen.destroy();
  vt.dispose();
  return { rows, raw, vt };
}
