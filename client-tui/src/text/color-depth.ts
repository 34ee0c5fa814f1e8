/** How many colours the terminal shows: 16 (ANSI) or 256 (true colour is drawn as 256). */
export type ColorDepth = 16 | 256;

/**
 * The colour depth from the environment: 256 when `COLORTERM` says truecolor/24bit or
 * `TERM` names a 256-colour terminal (tmux and screen included), else 16. `DSH_COLORS`
 * (16 or 256) overrides the guess.
 */
export function detectColorDepth(env: Readonly<Record<string, string | undefined>>): ColorDepth {
  const forced = env.DSH_COLORS;
  if (forced === '16' || forced === '256') return Number(forced) as ColorDepth;
  const colorterm = (env.COLORTERM ?? '').toLowerCase();
  if (colorterm === 'truecolor' || colorterm === '24bit') return 256;
  const term = (env.TERM ?? '').toLowerCase();
  return term.includes('256') || term.includes('direct') ? 256 : 16;
}
