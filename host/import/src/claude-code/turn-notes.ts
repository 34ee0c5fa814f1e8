import type { JsonRecord } from '../json-fields.js';

/**
 * Claude Code's bookkeeping of one turn (hooks that ran, stop-hook results, API retries,
 * the turn's duration, mode changes), folded into one context row when the turn ends so
 * the conversation shows it once, collapsed, instead of a row per line.
 */
export interface TurnNotes {
  /** Transcript lines folded in. */
  lines: number;
  /** Hook runs by hook name (`PreToolUse:Bash`), in first-seen order. */
  hooks: Record<string, number>;
  /** Things that went wrong or changed the turn: hook errors, blocked stops, API errors. */
  problems: string[];
  /** Modes entered (`permission mode: plan`). */
  changes: string[];
  /** The turn's duration as Claude Code measured it. */
  durationMs?: number;
}

/** One folded bookkeeping fact. */
export type TurnNote =
  | { readonly kind: 'hook'; readonly name: string }
  | { readonly kind: 'problem'; readonly text: string }
  | { readonly kind: 'change'; readonly text: string }
  | { readonly kind: 'duration'; readonly ms: number }
  | { readonly kind: 'line' };

const maxHooks = 64;
const maxItems = 20;
const maxItemLength = 400;

/** Notes with nothing folded in. */
export function emptyNotes(): TurnNotes {
  return { lines: 0, hooks: {}, problems: [], changes: [] };
}

/** Folds one fact into the notes (bounded: a runaway hook cannot grow them without end). */
export function addNote(notes: TurnNotes, note: TurnNote): void {
  notes.lines += 1;
  switch (note.kind) {
    case 'hook': {
      const known = Object.hasOwn(notes.hooks, note.name);
      if (known || Object.keys(notes.hooks).length < maxHooks) {
        notes.hooks[note.name] = (known ? notes.hooks[note.name]! : 0) + 1;
      }
      break;
    }
    case 'problem':
      pushBounded(notes.problems, note.text);
      break;
    case 'change':
      pushBounded(notes.changes, note.text);
      break;
    case 'duration':
      notes.durationMs = note.ms;
      break;
    case 'line':
      break;
    default: {
      const unknown: never = note;
      void unknown;
    }
  }
}

/** The readable text of the notes row: one summary line, then one line per problem or change. */
export function notesText(notes: TurnNotes): string {
  const head: string[] = [];
  const hooks = Object.entries(notes.hooks);
  if (hooks.length > 0) {
    const runs = hooks.reduce((sum, [, n]) => sum + n, 0);
    const names = hooks.map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
    head.push(`${runs} hook run${runs === 1 ? '' : 's'} (${names})`);
  }
  if (notes.durationMs !== undefined) head.push(`turn took ${duration(notes.durationMs)}`);
  if (head.length === 0)
    head.push(`${notes.lines} bookkeeping line${notes.lines === 1 ? '' : 's'}`);
  return [`Claude Code: ${head.join(' · ')}`, ...notes.problems, ...notes.changes].join('\n');
}

/** The notes as producer meta JSON for the context row. */
export function notesMeta(notes: TurnNotes): JsonRecord {
  return { ...notes };
}

/** A duration such as `42 s`, `5 min 42 s` or `1 h 3 min`. */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function pushBounded(list: string[], text: string): void {
  if (list.length >= maxItems) return;
  const line = text.replace(/\s+/g, ' ').trim();
  list.push(line.length > maxItemLength ? `${line.slice(0, maxItemLength - 1)}…` : line);
}
