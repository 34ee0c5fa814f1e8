import type {
  Card,
  CardBody,
  CardCache,
  PathFacts,
  RendererRegistry,
  ToolCallBlock,
} from '@dsh/card-models';
import type { StyledLine } from '../text/styled-line.js';

/** Where a card is drawn: compact in the conversation, complete in the details view. */
export type CardMode = 'conversation' | 'details';

/** The body props of one card kind, picked out of card-models' `CardBody` union. */
export type BodyOf<K extends CardBody['kind']> = Extract<CardBody, { kind: K }>;

/** What every renderer gets besides the block: path facts, the card cache, width and mode. */
export interface CardContext {
  readonly facts: PathFacts;
  readonly cards: CardCache;
  /** Cells available to the card's lines. */
  readonly width: number;
  readonly mode: CardMode;
}

/**
 * Draws the body of one card as wrapped lines (the head row is drawn by `renderToolCard`).
 * Gets the raw block (SPEC 7.3) and the card card-models derived from it.
 */
export type TuiCardRenderer = (
  block: ToolCallBlock,
  card: Card,
  context: CardContext,
) => StyledLine[];

/** The terminal client's renderer registry: tool name to body renderer. */
export type TuiRendererRegistry = RendererRegistry<TuiCardRenderer>;
