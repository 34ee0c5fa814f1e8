/**
 * The one keyed registry of a client: tool name to renderer. Lookups are O(1); an
 * unknown name resolves to the Generic renderer.
 */
export interface RendererRegistry<R> {
  /** Adds the renderer for `name`; throws when `name` already has one (one owner per tool). */
  register(name: string, renderer: R): void;
  /** The renderer registered for `name`, or the Generic renderer. */
  resolve(name: string): R;
  /** True when `name` has its own renderer. */
  has(name: string): boolean;
  /** The registered tool names in registration order. */
  names(): readonly string[];
}

/**
 * Creates the renderer registry a client instantiates once, with the Generic renderer
 * that serves unknown tools (and orphans, whose name is '').
 */
export function createRendererRegistry<R>(generic: R): RendererRegistry<R> {
  const renderers = new Map<string, R>();
  return {
    register(name, renderer) {
      if (renderers.has(name)) {
        throw new Error(
          `A renderer for tool "${name}" is already registered; each tool name has exactly one renderer, so remove the second register("${name}", ...) call.`,
        );
      }
      renderers.set(name, renderer);
    },
    resolve(name) {
      return renderers.has(name) ? (renderers.get(name) as R) : generic;
    },
    has(name) {
      return renderers.has(name);
    },
    names() {
      return [...renderers.keys()];
    },
  };
}
