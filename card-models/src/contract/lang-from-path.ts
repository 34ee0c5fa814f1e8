const byExtension: Record<string, string> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.json': 'json',
  '.jsonl': 'json',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.py': 'python',
  '.rb': 'ruby',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.kt': 'kotlin',
  '.swift': 'swift',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.php': 'php',
  '.sh': 'bash',
  '.bash': 'bash',
  '.zsh': 'bash',
  '.ps1': 'powershell',
  '.sql': 'sql',
  '.html': 'xml',
  '.htm': 'xml',
  '.xml': 'xml',
  '.svg': 'xml',
  '.vue': 'xml',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'ini',
  '.ini': 'ini',
  '.proto': 'protobuf',
  '.lua': 'lua',
  '.pl': 'perl',
  '.r': 'r',
  '.scala': 'scala',
  '.dart': 'dart',
  '.diff': 'diff',
  '.patch': 'diff',
};

const byName: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
  '.bashrc': 'bash',
  '.profile': 'bash',
};

/**
 * The highlight.js language for a file path, or '' when unknown (shown as plain text). Both
 * separators count, so Windows paths work too. The read tool records it in its meta and the
 * clients use it for diffs, so a file is coloured alike everywhere.
 */
export function langFromPath(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : '';
  return byName[name] ?? byExtension[extension] ?? '';
}
