import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { BACKGROUND_NICE } from './engine';

/**
 * The niceness of background work: BACKGROUND_NICE steps below the calling thread's own, so that a
 * gateway started at nice 5 keeps its batch work 10 steps behind it (19 at most: Linux's lowest).
 * Never above the caller: an absolute 10 would raise work started under `nice -n 15`.
 */
export function backgroundNice(): number {
  return Math.min(19, os.getPriority() + BACKGROUND_NICE);
}

/**
 * Lowers the calling thread's priority to backgroundNice(), so that its work never holds back the
 * gateway's event loop. On Linux a thread has its own priority: this one's id is in
 * /proc/thread-self (read by this thread, as readlinkSync is), and setpriority on it leaves the
 * other threads of the process alone. Elsewhere the thread keeps the process's priority.
 */
export function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) os.setPriority(tid, backgroundNice());
  } catch {
    // not Linux, or not allowed: the thread runs at the process's priority
  }
}
