import { onBeforeUnmount, ref, type Ref } from 'vue';

const tickMs = 15_000;
const now = ref(Date.now());
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

/**
 * The current time in ms, shared by every relative time on the page: one timer that
 * ticks every 15 s while any component uses it, so "2 min ago" stays true without a
 * timer per message.
 */
export function useNow(): Readonly<Ref<number>> {
  users += 1;
  if (timer === undefined) {
    now.value = Date.now();
    timer = setInterval(() => (now.value = Date.now()), tickMs);
  }
  onBeforeUnmount(() => {
    users -= 1;
    if (users > 0 || timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  });
  return now;
}
