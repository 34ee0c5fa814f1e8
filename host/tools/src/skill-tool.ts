import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import type { Tool } from './tool.js';

/** Arguments of `skill`. */
export interface SkillArgs {
  name: string;
  args?: string;
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, description: 'The skill to load.' },
    args: { type: 'string', description: 'Arguments for the skill.' },
  },
  required: ['name'],
  additionalProperties: false,
};

/** The folders skills are looked up in, first match wins: the project's, then the user's. */
export function skillDirs(cwd: string, home = homedir()): string[] {
  return [join(cwd, '.dsh', 'skills'), join(home, '.dsh', 'skills')];
}

/**
 * `skill`: returns the markdown of `<dir>/<name>.md` from the skill folders, with the
 * arguments appended; an unknown name fails listing the skills that exist.
 */
export function createSkillTool(home = homedir()): Tool<SkillArgs> {
  return {
    name: 'skill',
    description:
      'Loads a skill (markdown instructions from .dsh/skills/<name>.md) and returns its text.',
    ...toolSchema<SkillArgs>(schema, (args) =>
      /^[\w.-]+$/.test(args.name) && !args.name.startsWith('.')
        ? undefined
        : `skill name "${args.name}" may only contain letters, digits, '_', '-' and '.'`,
    ),
    async execute(args, ctx) {
      const dirs = skillDirs(ctx.cwd, home);
      for (const dir of dirs) {
        let text: string;
        try {
          text = await readFile(join(dir, `${args.name}.md`), 'utf8');
        } catch {
          continue;
        }
        const withArgs = args.args ? `${text.trimEnd()}\n\nArguments: ${args.args}` : text;
        return { content: withArgs, isError: false };
      }
      const available = await listSkills(dirs);
      const known =
        available.length === 0
          ? `no skills are installed (add markdown files to ${dirs.join(' or ')})`
          : `available skills: ${available.join(', ')}`;
      throw new ToolFailure('not_found', `unknown skill "${args.name}"; ${known}`);
    },
  };
}

async function listSkills(dirs: string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const dir of dirs) {
    try {
      for (const file of await readdir(dir)) if (file.endsWith('.md')) names.add(file.slice(0, -3));
    } catch {
      // a missing folder holds no skills
    }
  }
  return [...names].sort();
}
