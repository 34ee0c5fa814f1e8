import type { Card, CardBody, PathFacts, RendererRegistry, ToolCallBlock } from '@dsh/card-models';
import type { Component, InjectionKey, Ref } from 'vue';

/** Where a card is drawn: compact in the conversation, complete in the details panel. */
export type CardMode = 'conversation' | 'details';

/** The body props of one card kind, picked out of card-models' `CardBody` union. */
export type BodyOf<K extends CardBody['kind']> = Extract<CardBody, { kind: K }>;

/**
 * Props every renderer in the registry receives: the raw block and path facts (SPEC 7.3),
 * the card card-models derived from them, the mode, and whether the card is expanded.
 */
export interface CardRendererProps {
  readonly block: ToolCallBlock;
  readonly facts: PathFacts;
  readonly card: Card;
  readonly mode: CardMode;
  /** Always true in details; toggled by the card header in the conversation. */
  readonly expanded: boolean;
}

/** Events a renderer may emit: expand its card, or open a file (an absolute path). */
export interface CardRendererEmits {
  expand: [];
  'open-path': [path: string];
}

/** The web client's renderer registry: tool name to a Vue component taking `CardRendererProps`. */
export type WebRendererRegistry = RendererRegistry<Component>;

/**
 * Injection key for the registry `ToolCard` resolves renderers from; without a provider
 * it uses the shared registry of `createWebRegistry()`.
 */
export const rendererRegistryKey: InjectionKey<WebRendererRegistry> = Symbol('dsh-renderers');

/** What a card may need to know about the conversation window it is drawn in. */
export interface CardWindow {
  /** True while older events than the loaded window exist (an orphan's call may be there). */
  readonly hasMore: boolean;
  /** Calls whose question is open in a pending card below: their card does not repeat it. */
  readonly pendingQuestionCalls: ReadonlySet<string>;
}

/**
 * Injection key for the window facts the conversation provides. Without a provider (the
 * details panel, tests) cards draw everything themselves and say nothing about paging.
 */
export const cardWindowKey: InjectionKey<Readonly<Ref<CardWindow>>> = Symbol('dsh-card-window');
