import type { CardBody } from '@dsh/card-models';
import { computed, type ComputedRef } from 'vue';
import type { BodyOf, CardRendererProps } from './card-renderer.js';

/**
 * The card's body when card-models derived the kind this renderer draws, else undefined:
 * the renderer then draws `GenericCard` (spill notice, error, malformed input, sub-call).
 */
export function useCardBody<K extends CardBody['kind']>(
  props: CardRendererProps,
  kind: K,
): ComputedRef<BodyOf<K> | undefined> {
  return computed(() =>
    props.card.body.kind === kind ? (props.card.body as BodyOf<K>) : undefined,
  );
}
