import type { Timestamp } from '@bufbuild/protobuf/wkt';

/** Milliseconds since the epoch of a protobuf timestamp; 0 when absent. */
export function timestampMs(time: Timestamp | undefined): number {
  return time === undefined ? 0 : Number(time.seconds) * 1000 + Math.floor(time.nanos / 1e6);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date: for lists and headers. */
export function relativeTime(ms: number, now: number): string {
  if (ms === 0) return '';
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} d ago`;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * A duration for cards, thinking, turns and the trajectory: "850 ms", "4.2 s", "3 min 5 s",
 * "2 h 5 min", "3 d 4 h" (a call a host stop left open can span days).
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  const hours = Math.floor(minutes / 60);
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
