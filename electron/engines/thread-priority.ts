import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { BACKGROUND_NICE } from './engine';

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE, so that its work never holds back the
 * gateway's event loop. On Linux a thread has its own priority: this one's id is in
 * /proc/thread-self (read by this thread, as readlinkSync is), and setpriority on it leaves the
 * other threads of the process alone. Elsewhere the thread keeps the process's priority.
 */
export function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) os.setPriority(tid, BACKGROUND_NICE);
  } catch {
    // not Linux, or not allowed: the thread runs at the process's priority
  }
}
