/** A token count in a few characters: "950", "12.3k", "128k", "1.24M". */
export function compactCount(n: number): string {
  if (n < 1000) return String(Math.max(0, Math.round(n)));
  if (n < 10_000) return `${trim((n / 1000).toFixed(1))}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${trim((n / 1_000_000).toFixed(2))}M`;
}

/**
 * A whole count with thousands commas: "950", "12,345", "-1,240,000" (rounded). Plain
 * string work rather than `toLocaleString`, whose first call in a page builds ICU number
 * data for tens of milliseconds of the first paint.
 */
export function exactCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = String(Math.abs(Math.round(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return Math.round(n) < 0 ? `-${grouped}` : grouped;
}

/** Dollars with the precision small sums need: "$0.0042", "$0.42", "$12.30". */
export function usdLabel(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

function trim(fixed: string): string {
  return fixed.replace(/\.0+$/, '');
}
