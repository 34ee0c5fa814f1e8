import { highlightedLines } from '../markdown/code-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import type { TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { oneLine, textLines } from './text-lines.js';
import { theme } from './theme.js';

/** Todo card: the counts, then each item with its checkbox. */
export const renderTodo: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'todo') return renderGeneric(block, card, context);
  const lines: StyledLine[] = [
    [seg(`${body.done} done, ${body.active} active, ${body.pending} pending`, theme.dim)],
  ];
  for (const item of body.items) {
    const box =
      item.status === 'completed'
        ? seg('[x] ', theme.ok)
        : item.status === 'in_progress'
          ? seg('[~] ', theme.running)
          : seg('[ ] ', theme.dim);
    const style =
      item.status === 'completed'
        ? theme.dim
        : item.status === 'in_progress'
          ? theme.bold
          : undefined;
    lines.push(...wrapLine([box, seg(oneLine(item.content), style)], context.width, 4));
  }
  return lines;
};

/** Question card: its state, each question with numbered options, and the answers. */
export const renderQuestion: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'question') return renderGeneric(block, card, context);
  const stateStyle =
    body.state === 'answered' ? theme.ok : body.state === 'waiting' ? theme.running : theme.stopped;
  const lines: StyledLine[] = [[seg(body.state, stateStyle)]];
  for (const question of body.questions) {
    const header =
      question.header !== undefined && question.header !== ''
        ? `${oneLine(question.header)}: `
        : '';
    const multi = question.multiSelect ? ' (several)' : '';
    lines.push(
      ...wrapLine(
        [
          seg(header, theme.dim),
          seg(oneLine(question.question), theme.bold),
          seg(multi, theme.dim),
        ],
        context.width,
        2,
      ),
    );
    question.options.forEach((option, i) => {
      const description =
        option.description !== undefined && option.description !== '' && context.mode === 'details'
          ? [seg(` — ${oneLine(option.description)}`, theme.dim)]
          : [];
      lines.push(
        ...wrapLine(
          [seg(`  ${i + 1}. `, theme.dim), seg(oneLine(option.label)), ...description],
          context.width,
          5,
        ),
      );
    });
  }
  if (body.answers !== undefined) {
    lines.push(...textLines(body.answers, context.width, { style: theme.ok, indent: 2 }));
  }
  return lines;
};

/** Skill card: the head row names the skill and its state; the body previews its output. */
export const renderSkill: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'skill') return renderGeneric(block, card, context);
  return renderGeneric(block, card, context);
};

/** Code card: the description; the program (numbered, monospace) in details. Sub-calls follow it. */
export const renderCode: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'code') return renderGeneric(block, card, context);
  if (context.mode !== 'details') {
    return card.row.errorText !== '' ? renderGeneric(block, card, context) : [];
  }
  const lines: StyledLine[] = [[seg('Program', theme.bold)]];
  highlightedLines(body.code.split('\n'), 'javascript').forEach((line, i) => {
    const number = seg(`${String(i + 1).padStart(4)} `, theme.lineNumber);
    lines.push(...wrapLine([number, ...line], context.width, 5));
  });
  return [...lines, ...renderGeneric(block, card, context)];
};
