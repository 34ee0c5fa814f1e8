import type { InjectionKey } from 'vue';

/**
 * Injection key: cards start expanded (their output on show) where it is provided as
 * true; the HTML export provides it, since a saved page has no script to expand them.
 */
export const cardsExpandedKey: InjectionKey<boolean> = Symbol('dsh-cards-expanded');
