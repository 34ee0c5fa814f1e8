import type { NodeVector } from './node-vector.js';
import type { ConversationNode, ConversationSnapshot } from './types.js';

/** The shared `nodes` accessor, set by the class's static block (it reads a private field). */
let nodesProperty: PropertyDescriptor;

/**
 * A snapshot whose `nodes` array is read from its node vector on first access (cached per
 * vector version, so a snapshot costs O(1) to make). `nodes` is an own enumerable
 * accessor, so equality checks and spreads see it like a data field; all instances share
 * one accessor, which keeps them small, fast objects.
 */
export class VectorSnapshot implements ConversationSnapshot {
  declare readonly nodes: readonly ConversationNode[];
  readonly #vector: NodeVector<ConversationNode>;

  constructor(
    readonly firstSeq: number,
    readonly endSeq: number,
    readonly partial: ConversationSnapshot['partial'],
    readonly runningCalls: ConversationSnapshot['runningCalls'],
    readonly pending: ConversationSnapshot['pending'],
    readonly resolvedQuestions: ConversationSnapshot['resolvedQuestions'],
    readonly openTurn: ConversationSnapshot['openTurn'],
    readonly queueLog: ConversationSnapshot['queueLog'],
    vector: NodeVector<ConversationNode>,
  ) {
    this.#vector = vector;
    Object.defineProperty(this, 'nodes', nodesProperty);
  }

  static {
    nodesProperty = {
      enumerable: true,
      configurable: false,
      get(this: VectorSnapshot): readonly ConversationNode[] {
        return this.#vector.toArray();
      },
    };
  }
}
