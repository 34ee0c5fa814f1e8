import { LiveTerminal } from '@dsh/card-models';
import { since, type BenchRow } from './bench-row.js';

/** The size of one delta: the host's coalescing cuts chatty output into pieces this big. */
const deltaBytes = 4096;

/** Output like a test runner's: coloured lines with a carriage-return progress redraw. */
function deltaText(index: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < deltaBytes; i++) {
    const line = `\x1b[32m✓\x1b[39m test ${index}.${i} passed \x1b[2m(${i % 97} ms)\x1b[22m\r\x1b[Kline ${index}.${i}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join('');
}

/**
 * Client fold cost per live output byte: deltas written into a running card's
 * `LiveTerminal` with the conversation preview read after each one (what a client does
 * per render), for two totals ten times apart. Equal per-byte costs show it is linear.
 */
export async function liveOutputBench(quick: boolean): Promise<BenchRow[]> {
  const totals = quick ? [256 * 1024, 2560 * 1024] : [1024 * 1024, 10 * 1024 * 1024];
  const rows: BenchRow[] = [];
  const perByte: number[] = [];
  // Warm the emulator and the JIT so the first size is not charged for them.
  const warm = new LiveTerminal();
  for (let i = 0; i < 128; i++) warm.write(deltaText(i));
  warm.dispose();
  for (const total of totals) {
    const pieces = Array.from({ length: Math.ceil(total / deltaBytes) }, (_, i) => deltaText(i));
    const bytes = pieces.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
    const live = new LiveTerminal();
    const start = performance.now();
    for (const piece of pieces) {
      live.write(piece);
      live.preview({ head: 0, tail: 8 });
    }
    const ms = since(start);
    live.dispose();
    const ns = (ms * 1e6) / bytes;
    perByte.push(ns);
    const mb = (bytes / 1024 / 1024).toFixed(1);
    rows.push(
      {
        section: 'live',
        name: `fold ${mb} MiB of deltas`,
        value: ms,
        unit: 'ms',
        note: `${pieces.length} deltas of ~4 KiB, preview after each`,
      },
      { section: 'live', name: `fold cost per byte (${mb} MiB)`, value: ns, unit: 'ns/byte' },
    );
  }
  rows.push({
    section: 'live',
    name: 'per-byte cost ratio (10x the bytes)',
    value: (perByte[1] ?? Number.NaN) / (perByte[0] ?? Number.NaN),
    unit: 'x',
    note: '1 means linear',
  });
  return rows;
}
