import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a Claude Code transcript (the `~/.claude/projects/<project>/<session>.jsonl`
 * shape the importer reads) of `messages` user and assistant lines: each exchange is a
 * question, an assistant message calling Bash, its tool result and a closing answer, one
 * second apart. Returns the project dir.
 */
export function writeClaudeTranscript(dir: string, messages: number): string {
  const project = join(dir, 'projects', '-work-bench');
  mkdirSync(project, { recursive: true });
  const sessionId = '0b6f3c1e-2222-4a5b-9c1d-000000010000';
  const start = Date.UTC(2026, 0, 1);
  const lines: string[] = [];
  let parent: string | null = null;
  const push = (type: 'user' | 'assistant', message: unknown, extra: object = {}): void => {
    const n = lines.length;
    const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd: '/work/bench',
        sessionId,
        version: '1.0.98',
        gitBranch: '',
        type,
        message,
        uuid,
        timestamp: new Date(start + n * 1000).toISOString(),
        ...extra,
      }),
    );
    parent = uuid;
  };
  const usage = { input_tokens: 1200, output_tokens: 80, cache_read_input_tokens: 9000 };
  for (let i = 0; lines.length < messages; i++) {
    push('user', { role: 'user', content: `Question ${i}: what is in the folder now?` });
    push('assistant', {
      id: `msg_${i}_a`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: `Let me look (step ${i}).` },
        {
          type: 'tool_use',
          id: `toolu_${i}`,
          name: 'Bash',
          input: { command: 'ls -la', description: 'List files' },
        },
      ],
      stop_reason: 'tool_use',
      usage,
    });
    push(
      'user',
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: `toolu_${i}`,
            content: `total ${i}\nsrc\nREADME.md\npackage.json`,
          },
        ],
      },
      {
        toolUseResult: {
          stdout: `total ${i}\nsrc\nREADME.md\npackage.json`,
          stderr: '',
          interrupted: false,
        },
      },
    );
    push('assistant', {
      id: `msg_${i}_b`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        {
          type: 'text',
          text: `The folder holds **src**, \`README.md\` and \`package.json\` (${i}).`,
        },
      ],
      stop_reason: 'end_turn',
      usage,
    });
  }
  writeFileSync(join(project, `${sessionId}.jsonl`), lines.slice(0, messages).join('\n') + '\n');
  return join(dir, 'projects');
}
