import { createCardCache, type CardCache } from '@dsh/card-models';

/**
 * The card cache every `ToolCard` derives through, so an unchanged block keeps its card
 * object (and its replayed terminal lines) across re-renders and between conversation
 * and details.
 */
export const webCardCache: CardCache = createCardCache();
