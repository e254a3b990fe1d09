/**
 * The longest delay a Node timer keeps (2^31 − 1 ms, about 24.8 days): Node fires a longer one at once, with a
 * warning, so a very long deadline would end at once. Timers are capped to it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
