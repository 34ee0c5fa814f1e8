import { terminalCardPreview, type Card } from '@dsh/card-models';

/** Sources a web search card lists before it is expanded. */
export const collapsedSourceCount = 5;

/**
 * True when a conversation card has more to show when expanded, so its header offers
 * the expand toggle; details always show everything.
 */
export function cardExpandable(card: Card): boolean {
  const body = card.body;
  switch (body.kind) {
    // No web renderer draws a plan of its own: the Generic card shows it.
    case 'plan':
    case 'generic':
      return card.row.argsText !== '' || card.row.resultText !== '';
    case 'terminal':
      return terminalCardPreview(body).hidden > 0;
    case 'diff':
      return body.hiddenLines > 0;
    case 'read':
      return body.state === 'ok' && body.hiddenLines > 0;
    case 'search':
      return body.state === 'ok' && body.hiddenRows > 0;
    case 'web':
      return (
        body.tool === 'web_search' &&
        body.state === 'ok' &&
        body.sources.length > collapsedSourceCount
      );
    case 'code':
      return true;
    case 'skill':
      return card.row.resultText !== '';
    case 'todo':
    case 'question':
      return false;
    default: {
      const never: never = body;
      void never;
      return false;
    }
  }
}
