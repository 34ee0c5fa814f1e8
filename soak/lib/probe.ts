import type { Row } from './row.js';
import type { SoakContext } from './soak-context.js';

/** A row as a probe reports it; the runner adds the wall time. */
export type RowResult = Omit<Row, 'ms'>;

/** One probe of the suite: runs against real hosts and reports one or more rows. */
export interface Probe {
  /** Name for `--only` and progress lines. */
  readonly name: string;
  /** Whether it runs in `--short` mode. */
  readonly short: boolean;
  run(ctx: SoakContext): Promise<RowResult[]>;
}
