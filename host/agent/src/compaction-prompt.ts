/** What the summarising model is told, for one pass over a part of the transcript. */
export interface CompactionPromptFacts {
  readonly cwd: string;
  /** Most words the summary may have. */
  readonly words: number;
  /** The summary of everything before this part, when there is one. */
  readonly previous: string | undefined;
  /** What the person asked the summary to keep; '' for nothing. */
  readonly instruction: string;
}

/** The system message of a summarising call. */
export function compactionSystemPrompt(facts: CompactionPromptFacts): string {
  return [
    `You summarise the conversation between a person and a coding agent working in ${facts.cwd},`,
    'so that the agent can continue the work with your summary in place of the conversation.',
    'Keep everything the agent needs to carry on without the transcript:',
    "- the person's requests and goals, quoting the latest request exactly;",
    '- decisions made and why, and every constraint or preference the person stated;',
    '- files read, created or changed (with their paths) and what was done to them;',
    '- commands run and what they showed, with exact error messages that still matter;',
    '- the state of the work: what is done, what is in progress, what is left, the next step;',
    '- facts learned about the environment (paths, versions, tools).',
    `Write plain text of at most ${facts.words} words. Do not call tools and do not address the person.`,
  ].join('\n');
}

/** The user message of a summarising call: the earlier summary, the transcript, the ask. */
export function compactionUserPrompt(facts: CompactionPromptFacts, transcript: string): string {
  const parts: string[] = [];
  if (facts.previous !== undefined) {
    parts.push(
      'The conversation before this transcript was already summarised. That summary:',
      '<summary>',
      facts.previous,
      '</summary>',
      'Merge it with the transcript below into one summary.',
      '',
    );
  }
  parts.push('The transcript, oldest first:', '<transcript>', transcript, '</transcript>', '');
  if (facts.instruction !== '') {
    parts.push(`The person asked the summary to keep this in particular: ${facts.instruction}`);
  }
  parts.push('Write the summary now.');
  return parts.join('\n');
}
