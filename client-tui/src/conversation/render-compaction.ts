import { compactionLabel, type CompactionNode } from '@dsh/card-models';
import { oneLine, textLines } from '../cards/text-lines.js';
import { theme } from '../cards/theme.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';

/**
 * A compaction as a divider: a rule with the title and token counts, then the summary's
 * first line; `full` (the details view) adds the whole summary, the summarised range and
 * the person's instruction.
 */
export function compactionLines(node: CompactionNode, width: number, full: boolean): StyledLine[] {
  const label = compactionLabel(node);
  const head = ` ${label.title} · ${label.tokens} `;
  const rule = Math.max(0, width - head.length - 2);
  const divider = truncateLine(
    [seg('──', theme.notice), seg(head, theme.notice), seg('─'.repeat(rule), theme.notice)],
    width,
  );
  if (!full) {
    // The hint stays visible: the summary's first line is cut to leave room for it.
    const more = ' (Enter: summary)';
    const first = truncateLine(
      [seg('  ', theme.dim), seg(oneLine(node.summary), theme.dim)],
      Math.max(0, width - more.length),
    );
    return [[], divider, truncateLine([...first, seg(more, theme.dim)], width)];
  }
  return [
    divider,
    [seg(`  ${label.range}`, theme.dim)],
    ...(label.instruction === ''
      ? []
      : [[seg(`  asked to keep: ${label.instruction}`, theme.dim)]]),
    [],
    ...textLines(node.summary, width, { indent: 2 }),
  ];
}
