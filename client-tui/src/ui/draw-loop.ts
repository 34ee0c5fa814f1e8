import type { CardCache } from '@dsh/card-models';
import type { Widgets } from 'reblessed';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import type { ColorDepth } from '../text/color-depth.js';
import { drawTui, type DrawContext } from './draw-tui.js';
import { createExpiryTimer } from './expiry-timer.js';
import type { Frame } from './frame.js';
import { prepareDraw } from './prepare-draw.js';
import { syncPrompt } from './prompt-keys.js';
import { createRenderScheduler, type RenderScheduler } from './render-scheduler.js';
import { createSessionObserver } from './session-observer.js';
import { createTerminalWriter, type TerminalWriter } from './terminal-writer.js';
import type { TuiState } from './tui-state.js';

/** What the draw loop draws with. */
export interface DrawLoopOptions {
  readonly state: TuiState;
  readonly screen: Widgets.Screen;
  /** Writes to the terminal (frames, titles, the bell). */
  readonly write: (data: string) => void;
  readonly colorDepth: ColorDepth;
  readonly hostLabel: string;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
  readonly bell: boolean;
  readonly now: () => number;
}

/** The client's drawing: one scheduled draw per event-loop turn at most. */
export interface DrawLoop {
  readonly scheduler: RenderScheduler;
  readonly writer: TerminalWriter;
  dispose(): void;
}

/**
 * Draws `state` on the screen whenever a draw is scheduled: the observer acts on what
 * changed (title, bell, queue), the prompt bar takes focus when it should, the frame is
 * composed and written, and the expiry timer is armed for what ends by the clock.
 */
export function createDrawLoop(options: DrawLoopOptions): DrawLoop {
  const { state, screen, now } = options;
  const writer = createTerminalWriter(options.write, options.colorDepth);
  const observer = createSessionObserver({ write: options.write, bell: options.bell, now });
  const parts = { hostLabel: options.hostLabel, registry: options.registry, cards: options.cards };
  const expiry = createExpiryTimer(state, now, () => scheduler.schedule());
  const scheduler = createRenderScheduler(() => {
    const t = now();
    observer.observe(state);
    syncPrompt(state, t);
    writer.draw(frameOf(state, screen, { ...parts, now: t }));
    expiry.arm();
    // A render at a new width that ran out of its budget goes on in the next draw.
    if (state.open?.renderedFrom?.complete === false) scheduler.schedule();
  });
  return {
    scheduler,
    writer,
    dispose() {
      expiry.dispose();
      scheduler.dispose();
      observer.dispose();
    },
  };
}

/** One frame of `state` at the screen's size: `prepareDraw` updates, then `drawTui` reads. */
function frameOf(
  state: TuiState,
  screen: Widgets.Screen,
  parts: Omit<DrawContext, 'cols' | 'rows'>,
): Frame {
  const context = { ...parts, cols: screen.width as number, rows: screen.height as number };
  prepareDraw(state, context);
  return drawTui(state, context);
}
