const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** One trie node of a {@link NodeVector}. */
export interface Trie {
  /** The editor allowed to mutate this trie node in place; any other editor copies it. */
  readonly owner: object | undefined;
  readonly items: unknown[];
}

/**
 * A persistent vector (a 32-way trie): `push` and `set` copy only the path to the changed
 * leaf, so every version stays valid and a change costs O(log32 n). `toArray` is cached
 * per version, so versions that share a vector share one array.
 */
export class NodeVector<T> {
  private array: readonly T[] | undefined;

  private constructor(
    readonly length: number,
    private readonly shift: number,
    private readonly root: Trie,
  ) {}

  /** The empty vector. */
  static empty<T>(): NodeVector<T> {
    return new NodeVector<T>(0, 0, { owner: undefined, items: [] });
  }

  /** The item at `index`, or undefined outside the vector. */
  get(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined;
    let node = this.root;
    for (let shift = this.shift; shift > 0; shift -= BITS) {
      node = node.items[(index >>> shift) & MASK] as Trie;
    }
    return node.items[index & MASK] as T;
  }

  /** All items as a plain array, built once per version. */
  toArray(): readonly T[] {
    if (this.array === undefined) {
      const out: T[] = [];
      collect(this.root, this.shift, out);
      this.array = out;
    }
    return this.array;
  }

  /** An editor that derives a new version; this version is never changed. */
  edit(): NodeVectorEditor<T> {
    return new NodeVectorEditor<T>(this, this.length, this.shift, this.root);
  }

  /** Used by the editor to publish a version. */
  static of<T>(length: number, shift: number, root: Trie): NodeVector<T> {
    return new NodeVector<T>(length, shift, root);
  }
}

/** Derives one new version of a vector; trie nodes it created are mutated in place. */
export class NodeVectorEditor<T> {
  private readonly token = {};
  private changed = false;

  constructor(
    private readonly base: NodeVector<T>,
    public length: number,
    private shift: number,
    private root: Trie,
  ) {}

  /** Appends `item`. */
  push(item: T): void {
    if (this.length === WIDTH * 2 ** this.shift) {
      this.root = { owner: this.token, items: [this.root, this.path(this.shift, item)] };
      this.shift += BITS;
    } else {
      this.root = this.pushAt(this.root, this.shift, this.length, item);
    }
    this.length += 1;
    this.changed = true;
  }

  /** Replaces the item at `index` (which must exist). */
  set(index: number, item: T): void {
    this.root = this.setAt(this.root, this.shift, index, item);
    this.changed = true;
  }

  /** The new version, or the base vector when nothing changed. */
  done(): NodeVector<T> {
    return this.changed ? NodeVector.of<T>(this.length, this.shift, this.root) : this.base;
  }

  private own(node: Trie): Trie {
    return node.owner === this.token ? node : { owner: this.token, items: node.items.slice() };
  }

  private path(shift: number, item: T): Trie {
    return { owner: this.token, items: [shift === 0 ? item : this.path(shift - BITS, item)] };
  }

  private pushAt(node: Trie, shift: number, index: number, item: T): Trie {
    const own = this.own(node);
    if (shift === 0) {
      own.items.push(item);
      return own;
    }
    const slot = (index >>> shift) & MASK;
    own.items[slot] =
      slot < own.items.length
        ? this.pushAt(own.items[slot] as Trie, shift - BITS, index, item)
        : this.path(shift - BITS, item);
    return own;
  }

  private setAt(node: Trie, shift: number, index: number, item: T): Trie {
    const own = this.own(node);
    if (shift === 0) {
      own.items[index & MASK] = item;
    } else {
      const slot = (index >>> shift) & MASK;
      own.items[slot] = this.setAt(own.items[slot] as Trie, shift - BITS, index, item);
    }
    return own;
  }
}

function collect<T>(node: Trie, shift: number, out: T[]): void {
  if (shift === 0) {
    for (const item of node.items) out.push(item as T);
    return;
  }
  for (const child of node.items) collect(child as Trie, shift - BITS, out);
}
