import type { ToolErrorInfo, ToolValue } from './tool.js';

/**
 * The one error type of the tool boundary: tools throw it to end a call with a
 * structured error, and `ToolFailure.from` maps anything else thrown to it.
 */
export class ToolFailure extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = errorName(code);
  }

  /** Maps anything thrown inside a tool to a `ToolFailure` (code `internal` unless known). */
  static from(thrown: unknown): ToolFailure {
    if (thrown instanceof ToolFailure) return thrown;
    if (thrown instanceof Error) {
      const errno = (thrown as NodeJS.ErrnoException).code;
      if (errno === 'ENOENT') return new ToolFailure('not_found', thrown.message);
      if (errno === 'EACCES' || errno === 'EPERM')
        return new ToolFailure('permission_denied', thrown.message);
      return new ToolFailure('internal', thrown.message);
    }
    return new ToolFailure('internal', String(thrown));
  }

  /** The structured form recorded in `tool/result.error`. */
  toInfo(): ToolErrorInfo {
    return { name: this.name, code: this.code, message: this.message };
  }

  /** An error result whose model-visible text is the message. */
  toValue<V>(value?: V): ToolValue<V> {
    return { content: `Error: ${this.message}`, isError: true, error: this.toInfo(), value };
  }
}

/** `invalid_arguments` -> `InvalidArguments`. */
function errorName(code: string): string {
  return code
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
