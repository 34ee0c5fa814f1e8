import type { SearchHit } from '@dsh/gen/service';

/** What `revealHit` needs of the conversation view. */
export interface HitView {
  revealCall(callId: string): Promise<HTMLElement | undefined>;
  revealSeq(seq: number): Promise<HTMLElement | undefined>;
}

/** How long a revealed hit stays highlighted. */
const highlightMs = 2_500;

/**
 * Scrolls a search hit into view and highlights it for a moment: the card of its call
 * when it has one, else the node that holds its seq.
 */
export async function revealHit(view: HitView | undefined, hit: SearchHit): Promise<void> {
  if (view === undefined) return;
  const element =
    (hit.callId !== '' ? await view.revealCall(hit.callId) : undefined) ??
    (await view.revealSeq(hit.seq));
  if (element === undefined) return;
  element.classList.add('search-target');
  element.dataset['searchSeq'] = String(hit.seq);
  setTimeout(() => element.classList.remove('search-target'), highlightMs);
}
