/** A moment in the reader's time zone, to the second: "2026-01-01 10:00:03". */
export function absoluteTime(ms: number): string {
  if (ms === 0) return '';
  const date = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
