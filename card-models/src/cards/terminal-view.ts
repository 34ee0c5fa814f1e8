import type { LiveOutput } from '../conversation/types.js';
import type { TerminalCard } from './card-types.js';
import { LiveTerminal } from './live-terminal.js';
import { replayGeometry, terminalEmulatorLoaded } from './terminal-emulator.js';
import {
  limitTerminalLines,
  renderTerminalOutput,
  terminalPreview,
  type TerminalLine,
  type TerminalPreview,
  type TerminalRenderOptions,
} from './terminal-output.js';

/** Lines a running terminal card shows in the conversation: the tail of its live output. */
export const liveTerminalPreview = { head: 0, tail: 8 } as const;

/** A live replay and how many chunks of its call's live output it has read. */
interface LiveReplay {
  readonly terminal: LiveTerminal;
  consumed: number;
}

/**
 * One replay per call's chunk array (shared by every version of its block, see
 * `LiveOutput`) and geometry, so each delta is replayed once whatever the number of
 * versions; it goes with the array once the call settles and its blocks are dropped.
 */
const liveReplays = new WeakMap<readonly string[], Map<string, LiveReplay>>();
const linesByCard = new WeakMap<TerminalCard, Map<string, readonly TerminalLine[]>>();
const previewByCard = new WeakMap<TerminalCard, Map<string, TerminalPreview>>();

/** The cache key of a replay: its geometry, and whether it ran without the emulator. */
function geometryKey(options: TerminalRenderOptions): string {
  const { cols, rows } = replayGeometry(options);
  return `${cols}x${rows}${terminalEmulatorLoaded() ? '' : ' plain'}`;
}

function cached<T>(
  cache: WeakMap<TerminalCard, Map<string, T>>,
  card: TerminalCard,
  key: string,
  make: () => T,
): T {
  let byKey = cache.get(card);
  if (!byKey) cache.set(card, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined) byKey.set(key, (value = make()));
  return value;
}

/**
 * Runs `read` on the replay of `live` as of its `count` chunks: the shared replay, fed
 * only the chunks it has not read; a version older than what that replay has read (a
 * stale card) gets a replay of its own.
 */
function withLiveReplay<T>(
  live: LiveOutput,
  options: TerminalRenderOptions,
  read: (terminal: LiveTerminal) => T,
): T {
  const key = geometryKey(options);
  let byGeometry = liveReplays.get(live.chunks);
  if (!byGeometry) liveReplays.set(live.chunks, (byGeometry = new Map()));
  let replay = byGeometry.get(key);
  if (replay !== undefined && replay.consumed > live.count) {
    const own = new LiveTerminal(options);
    for (let i = 0; i < live.count; i++) own.write(live.chunks[i] ?? '');
    const value = read(own);
    own.dispose();
    return value;
  }
  if (replay === undefined)
    byGeometry.set(key, (replay = { terminal: new LiveTerminal(options), consumed: 0 }));
  for (; replay.consumed < live.count; replay.consumed++) {
    replay.terminal.write(live.chunks[replay.consumed] ?? '');
  }
  return read(replay.terminal);
}

/**
 * The replayed output lines of a terminal card: its settled output, or while it runs
 * its live output so far (replayed incrementally with the same rules). Cached by card
 * identity and geometry. Empty when there is neither.
 */
export function terminalLines(
  card: TerminalCard,
  options: TerminalRenderOptions = {},
): readonly TerminalLine[] {
  const output = card.output;
  const live = card.live;
  if (output === undefined && live === undefined) return [];
  return cached(linesByCard, card, geometryKey(options), () => {
    if (output !== undefined) return renderTerminalOutput(output, options);
    return live === undefined ? [] : withLiveReplay(live, options, (t) => t.lines());
  });
}

/**
 * What a terminal card shows in the conversation: the first and last lines of its
 * settled output (`terminalPreview`), or the last lines of its live output while it runs
 * (`liveTerminalPreview`), with the number of lines between for the expand control.
 * A live preview costs O(screen + lines shown), however long the output.
 */
export function terminalCardPreview(
  card: TerminalCard,
  options: TerminalRenderOptions = {},
): TerminalPreview {
  const live = card.output === undefined ? card.live : undefined;
  return cached(previewByCard, card, geometryKey(options), () =>
    live === undefined
      ? limitTerminalLines(terminalLines(card, options), terminalPreview)
      : withLiveReplay(live, options, (t) => t.preview(liveTerminalPreview)),
  );
}

/**
 * The note a running card shows under its live output once the host stopped sending it
 * (its per-call budget); undefined otherwise.
 */
export function liveOutputNote(card: TerminalCard): string | undefined {
  if (card.output !== undefined || card.live?.truncated !== true) return undefined;
  return 'Live output stopped at the host’s limit; the full output comes with the result.';
}
