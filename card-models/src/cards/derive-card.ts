import type { ToolCallBlock } from '../conversation/types.js';
import { cardStatus } from './card-status.js';
import { parseJsonObject } from './card-json.js';
import type { Card, CardBody, CardStatus, GenericRow, SessionLink } from './card-types.js';
import { codeCard } from './code-card.js';
import { diffCard } from './diff-card.js';
import { genericRow } from './generic-row.js';
import type { PathFacts } from './path-facts.js';
import { planCard } from './plan-card.js';
import { questionCard } from './question-card.js';
import { readCard } from './read-card.js';
import { searchCard } from './search-card.js';
import { skillCard } from './skill-card.js';
import { terminalCard } from './terminal-card.js';
import { todoCard } from './todo-card.js';
import { webCard } from './web-card.js';

const generic: CardBody = Object.freeze({ kind: 'generic' });

/** Picks the specialised body by tool name; `undefined` means the Generic card. */
function specialBody(block: ToolCallBlock, facts: PathFacts): CardBody | undefined {
  switch (block.name) {
    case 'bash':
    case 'pwsh':
    case 'terminal_send':
    case 'BashOutput':
    case 'TaskOutput':
    case 'KillBash':
    case 'KillShell':
      return terminalCard(block, facts);
    case 'ExitPlanMode':
      return planCard(block);
    case 'write':
    case 'edit':
    case 'str_replace_editor':
      return diffCard(block, facts);
    case 'read':
      return readCard(block, facts);
    case 'grep':
    case 'glob':
    case 'LS':
      return searchCard(block, facts);
    case 'web_search':
    case 'web_fetch':
      return webCard(block);
    case 'todo_write':
      return todoCard(block);
    case 'ask_user':
      return questionCard(block);
    case 'skill':
      return skillCard(block);
    case 'run_code':
      return codeCard(block);
    default:
      return undefined;
  }
}

function lastResortRow(block: ToolCallBlock): GenericRow {
  const callId = typeof block?.callId === 'string' ? block.callId : '';
  return {
    callId,
    tool: typeof block?.name === 'string' ? block.name : '',
    kind: 'other',
    title: (typeof block?.name === 'string' && block.name) || callId,
    summary: '',
    path: undefined,
    displayPath: undefined,
    argsText: typeof block?.argsRaw === 'string' ? block.argsRaw : '',
    resultText: '',
    errorText: '',
    errorCode: '',
    state: block?.status ?? 'error',
    orphan: block?.call === null,
    nested: block?.parentCallId !== undefined,
  };
}

/**
 * Derives the card of one tool call: the generic row, the body chosen by tool name (or
 * Generic when the tool is unknown or its input does not fit the contract), the status
 * to show (`cardStatus`), the cards of its sub-calls through `subCard` (a cache passes
 * itself so unchanged children keep their identity) and the link to the session its work
 * ran in. Total: an unexpected failure gives the Generic card, never a throw.
 */
export function deriveCard(
  block: ToolCallBlock,
  facts: PathFacts,
  subCard: (block: ToolCallBlock, facts: PathFacts) => Card = deriveCard,
): Card {
  let row: GenericRow;
  try {
    row = genericRow(block, facts);
  } catch {
    row = lastResortRow(block);
  }
  let body: CardBody = generic;
  try {
    body = specialBody(block, facts) ?? generic;
  } catch {
    body = generic;
  }
  let status: CardStatus;
  try {
    status = cardStatus(block, row, body);
  } catch {
    status = { state: row.state, label: row.state };
  }
  let subCalls: readonly Card[] = [];
  try {
    if (block.subCalls.length > 0) subCalls = block.subCalls.map((sub) => subCard(sub, facts));
  } catch {
    subCalls = [];
  }
  return { row, body, status, subCalls, link: sessionLink(block) };
}

/** The child session a call's meta names (`ChildSessionMeta`), as a link. */
function sessionLink(block: ToolCallBlock): SessionLink | undefined {
  const metaJson = block.result?.metaJson ?? '';
  if (!metaJson.includes('childSessionId')) return undefined;
  const id = parseJsonObject(metaJson)?.childSessionId;
  if (typeof id !== 'string' || id === '') return undefined;
  return { sessionId: id, label: "Open the sub-agent's session" };
}
