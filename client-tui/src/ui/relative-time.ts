import type { Timestamp } from '@bufbuild/protobuf/wkt';

/** Milliseconds since the epoch of a protobuf timestamp; undefined when absent. */
export function timestampMs(time: Timestamp | undefined): number | undefined {
  if (time === undefined) return undefined;
  return Number(time.seconds) * 1000 + Math.floor(time.nanos / 1e6);
}

/** How long ago `then` was, in at most four cells: `now`, `5m`, `3h`, `2d`, `6w`, `1y`. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds < 60) return 'now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 14) return `${days}d`;
  if (days < 365) return `${Math.floor(days / 7)}w`;
  return `${Math.floor(days / 365)}y`;
}
