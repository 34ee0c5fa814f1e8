import {
  answerablePending,
  applyAnswer,
  loadOlderAtTop,
  onCommon,
  report,
  stop,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { fileViewOf, openSessionFacts } from './file-view.js';
import { chooseOption, confirmChoice, startAnswers } from './question-answers.js';
import type { TuiState } from './tui-state.js';

/** Keys of the conversation pane: cards, scrolling, details, approvals, questions, stop. */
export function onConversation(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): void {
  const open = state.open;
  const view = open?.view;
  const page = Math.max(1, (open?.view.frame().lines.length ?? 2) - 2);
  const pending = answerablePending(state);
  const approval = pending.find((item) => item.kind === 'approval');
  const question = pending.find((item) => item.kind === 'question');
  switch (key.full) {
    case 'j':
    case 'down':
      view?.select(1);
      return;
    case 'k':
    case 'up':
      view?.select(-1);
      loadOlderAtTop(state);
      return;
    case 'pagedown':
    case 'C-d':
    case 'space':
      view?.scroll(page);
      return;
    case 'pageup':
    case 'C-u':
      if (view?.frame().atTop) loadOlderAtTop(state);
      view?.scroll(-page);
      loadOlderAtTop(state);
      return;
    case 'g':
    case 'home':
      view?.top();
      loadOlderAtTop(state);
      return;
    case 'S-g':
    case 'end':
      view?.follow();
      return;
    case 'enter':
    case 'return': {
      if (question?.kind === 'question' && state.answers?.questionId === question.questionId) {
        applyAnswer(state, context, question.questionId, confirmChoice(question, state.answers));
        return;
      }
      const item = view?.items[view.selected];
      if (item) state.details = { key: item.key, top: 0 };
      return;
    }
    case 'o': {
      const item = view?.items[view.selected];
      const facts = openSessionFacts(state);
      const target = item && view && facts ? fileViewOf(view.items, item, facts) : undefined;
      if (target) state.details = { key: target.key, top: 0 };
      return;
    }
    case 'i':
      state.focus = 'input';
      state.inputMode = 'prompt';
      return;
    case 's':
    case 'C-x':
      stop(state, context);
      return;
    case 'q':
      return;
    default:
      break;
  }
  if (open && approval?.kind === 'approval' && (ch === 'y' || ch === 'a' || ch === 'n')) {
    const decision = ch === 'y' ? 'allow' : ch === 'a' ? 'session' : 'deny';
    report(
      state,
      context,
      context.actions.approve(open.id, approval.approvalId, decision),
      `${decision === 'deny' ? 'denied' : 'allowed'} ${approval.toolName}`,
    );
    return;
  }
  if (open && question?.kind === 'question') {
    const progress = startAnswers(question, state.answers);
    if (ch !== undefined && /^[1-9]$/.test(ch)) {
      applyAnswer(
        state,
        context,
        question.questionId,
        chooseOption(question, progress, Number(ch)),
      );
      if (state.answers === undefined || state.answers.questionId !== question.questionId) return;
      return;
    }
    if (ch === 't') {
      state.answers = progress;
      state.inputMode = 'answer';
      state.focus = 'input';
      return;
    }
    if (ch === 'x') {
      state.answers = undefined;
      report(
        state,
        context,
        context.actions.answer(open.id, question.questionId, 'cancelled'),
        'declined',
      );
      return;
    }
  }
  onCommon(state, ch, context);
}
