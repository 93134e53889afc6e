/**
 * A full garbage collection once the agent has settled and nothing happened
 * for a moment: a streamed answer leaves its garbage (the partial messages,
 * the frames) on the heap, and an idle nova should give that memory back
 * rather than wait for the next allocation to trigger a collection. Any later
 * call moves the moment; the timer never keeps the process alive.
 */
const IDLE_MS = 300;

let timer: ReturnType<typeof setTimeout> | undefined;

export function collectWhenIdle(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    Bun.gc(true);
  }, IDLE_MS);
  timer.unref();
}
