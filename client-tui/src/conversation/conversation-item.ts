import type { PendingItem, SessionLink, ToolCallBlock } from '@dsh/card-models';
import type { StyledLine } from '../text/styled-line.js';

/**
 * One selectable unit of the conversation pane: a message, a card, a marker or a pending
 * approval/question, drawn as lines at the pane width. `key` is stable across snapshots
 * (it names the seq, call or id), so selection and scroll anchors survive re-renders.
 */
export interface ConversationItem {
  readonly key: string;
  readonly lines: readonly StyledLine[];
  /** The tool call the item draws, when it is a card. */
  readonly block?: ToolCallBlock;
  readonly pending?: PendingItem;
  /** The item's own text (a message as written, its Markdown source): what copying it gives. */
  readonly text?: string;
  /** Another session the item leads to (a sub-agent's session, a parent): `l` opens it. */
  readonly link?: SessionLink;
  /** The full view of the item for the details pane, at `width`. */
  readonly details: (width: number) => StyledLine[];
}
