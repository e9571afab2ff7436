/**
 * Chunks a WAV job may hold back in memory ahead of their turn, and their bytes at most over all
 * jobs. With two engine threads on one job (a chapter said a sentence at a time), half its units
 * came back while the one before was still being synthesized, and each of their sentences was
 * written to a chunk file, read back and removed a moment later. Beyond these bounds (a unit stuck
 * on a long sentence while the others run on) a chunk goes to its file as before (assembler.ts).
 */
export const HELD_AHEAD_CHUNKS = 8;
export const HELD_AHEAD_BYTES = 32 * 1024 * 1024;

/** A chunk handed over as it was synthesized, without a chunk file, for its turn. */
export interface Offer {
  idx: number;
  samples: Int16Array;
  /** Records the chunk as done and joined, once it is in the WAV. */
  record(): void;
  /** true: joined and recorded; false: not taken, it goes to its chunk file. */
  settle(joined: boolean): void;
}

/** The chunks offered and waiting, and the bytes they hold over all jobs. */
export class HeldChunks {
  private bytes = 0;

  /** Whether one more chunk of `bytes` may wait ahead of its turn beside the `waiting` of its job. */
  fits(waiting: number, bytes: number): boolean {
    return waiting < HELD_AHEAD_CHUNKS && this.bytes + bytes <= HELD_AHEAD_BYTES;
  }

  /** Keeps a chunk in its job's `offers` until it is joined or given back; settling it, once, frees its place. */
  hold(offers: Map<number, Offer>, offer: Omit<Offer, 'settle'>, resolve: (joined: boolean) => void): Offer {
    let settled = false;
    const held: Offer = {
      ...offer,
      settle: (joined) => {
        if (settled) return;
        settled = true;
        if (offers.get(offer.idx) === held) offers.delete(offer.idx);
        this.bytes -= offer.samples.byteLength;
        resolve(joined);
      },
    };
    offers.set(offer.idx, held);
    this.bytes += offer.samples.byteLength;
    return held;
  }
}

/** The chunks of a job waiting for their turn go to their chunk files. */
export function giveBack(offers: Map<number, Offer>): void {
  for (const offer of [...offers.values()]) offer.settle(false);
}
