/**
 * Where a session runs, as card models need it to show paths: the session's working
 * directory and the host user's home directory, both absolute (POSIX or Windows).
 */
export interface PathFacts {
  readonly cwd: string;
  readonly home: string;
}

/** A path split into its root and normalised segments. */
interface ParsedPath {
  /** Root as written back: '/', 'C:\', '\\server\share\', or '' for a relative path. */
  readonly root: string;
  readonly windows: boolean;
  readonly segments: readonly string[];
}

const drivePattern = /^([A-Za-z]):(?:[\\/]|$)/;
const uncPattern = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]|$)/;

function parsePath(path: string, windowsHint: boolean): ParsedPath {
  let root = '';
  let rest = path;
  let windows = windowsHint || path.includes('\\');
  const drive = drivePattern.exec(path);
  const unc = path.startsWith('\\\\') || (windows && path.startsWith('//'));
  const uncMatch = unc ? uncPattern.exec(path) : null;
  if (drive) {
    windows = true;
    root = `${(drive[1] ?? '').toUpperCase()}:\\`;
    rest = path.slice(drive[0].length);
  } else if (uncMatch) {
    windows = true;
    root = `\\\\${uncMatch[1] ?? ''}\\${uncMatch[2] ?? ''}\\`;
    rest = path.slice(uncMatch[0].length);
  } else if (path.startsWith('/') || (windows && path.startsWith('\\'))) {
    root = windows ? '\\' : '/';
    rest = path.slice(1);
  }
  const segments: string[] = [];
  for (const part of rest.split(windows ? /[\\/]+/ : /\/+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      else if (root === '') segments.push('..');
      continue;
    }
    segments.push(part);
  }
  return { root, windows, segments };
}

function formatPath(parsed: ParsedPath): string {
  const sep = parsed.windows ? '\\' : '/';
  const body = parsed.segments.join(sep);
  if (parsed.root === '') return body === '' ? '.' : body;
  return parsed.root + body;
}

function isWindowsPath(path: string): boolean {
  return drivePattern.test(path) || path.startsWith('\\\\') || path.includes('\\');
}

/**
 * Joins `path` onto `base` unless it is absolute, then normalises `.` and `..`.
 * A rooted Windows path without a drive (`\x`) takes the drive of `base`.
 */
function resolveParsed(path: string, base: string): ParsedPath {
  const windows = isWindowsPath(base) || isWindowsPath(path);
  const parsed = parsePath(path, windows);
  if (parsed.root !== '' && parsed.root !== '\\') return parsed;
  const baseParsed = parsePath(base, windows);
  if (parsed.root === '\\') {
    return { root: baseParsed.root || '\\', windows: true, segments: parsed.segments };
  }
  return parsePath(
    formatPath(baseParsed) + (windows ? '\\' : '/') + parsed.segments.join(windows ? '\\' : '/'),
    windows,
  );
}

function sameSegment(a: string, b: string, windows: boolean): boolean {
  return windows ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The segments of `path` below `base`, or `undefined` when `path` is not inside `base`. */
function below(path: ParsedPath, base: ParsedPath): readonly string[] | undefined {
  if (base.root === '' || !sameSegment(path.root, base.root, path.windows || base.windows)) {
    return undefined;
  }
  if (path.segments.length < base.segments.length) return undefined;
  for (let i = 0; i < base.segments.length; i++) {
    if (!sameSegment(path.segments[i] ?? '', base.segments[i] ?? '', path.windows)) {
      return undefined;
    }
  }
  return path.segments.slice(base.segments.length);
}

/**
 * The working directory a shell command ran in: `workdir` resolved against the session
 * cwd (absolute kept, relative joined, missing or empty gives the cwd), with `.`/`..`,
 * Windows drive letters (upper-cased) and UNC roots normalised.
 */
export function resolveWorkdir(workdir: string | undefined, cwd: string): string {
  if (workdir === undefined || workdir === '') return normalizePath(cwd);
  return formatPath(resolveParsed(workdir, cwd));
}

/** Normalises `.`/`..`, repeated separators, drive letters and UNC roots of one path. */
export function normalizePath(path: string): string {
  if (path === '') return '';
  return formatPath(parsePath(path, isWindowsPath(path)));
}

/**
 * How a card shows a path: relative to the session cwd when inside it ('.' for the cwd
 * itself), `~` for the home directory and below it, otherwise absolute. Relative input
 * is taken relative to the cwd. Windows paths compare case-insensitively.
 */
export function displayPath(path: string, facts: PathFacts): string {
  if (path === '') return '';
  const resolved = resolveParsed(path, facts.cwd);
  const sep = resolved.windows ? '\\' : '/';
  const cwd = facts.cwd === '' ? undefined : parsePath(facts.cwd, isWindowsPath(facts.cwd));
  const inCwd = cwd ? below(resolved, cwd) : undefined;
  if (inCwd) return inCwd.length === 0 ? '.' : inCwd.join(sep);
  return abbreviateHome(formatPath(resolved), facts.home);
}

/**
 * Replaces the home directory prefix of an absolute path by `~` (`~` alone for home
 * itself); other paths come back normalised. Terminal prompts show their cwd this way.
 */
export function abbreviateHome(path: string, home: string): string {
  if (path === '') return '';
  const parsed = parsePath(path, isWindowsPath(path));
  if (home !== '') {
    const inHome = below(parsed, parsePath(home, isWindowsPath(home)));
    if (inHome) {
      const sep = parsed.windows ? '\\' : '/';
      return inHome.length === 0 ? '~' : `~${sep}${inHome.join(sep)}`;
    }
  }
  return formatPath(parsed);
}
