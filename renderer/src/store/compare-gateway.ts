import type { OratorClient } from '../api/client';
import { API, type CompareSession } from '../api/contract';
import { joinTexts } from '../lib/compare-texts';
import { describeError } from '../lib/format';
import { samplePeak, wavData } from '../lib/wav-gain';
import type { TakeFile } from './compare-slice';
import type { StoreGet, StoreSet } from './types';

/**
 * The compare panel's side of the gateway: `attempt` runs a call, keeping its error on the panel;
 * `show` shows a session as the gateway answered it, fetches each ready take's audio once, and
 * reads the session again every second while a take is running.
 */
export function compareGateway(set: StoreSet, get: StoreGet) {
  /** Runs a gateway call, keeping its error on the panel. */
  const attempt = async <T>(work: (compare: OratorClient) => Promise<T>): Promise<T | undefined> => {
    const compare = get().client;
    if (!compare) return undefined;
    try {
      set({ compareError: null });
      return await work(compare);
    } catch (error) {
      set({ compareError: describeError(error) });
      return undefined;
    }
  };
  const show = (session: CompareSession) => {
    const known = get().compareSession?.session_id === session.session_id;
    set({
      compareSession: session,
      compareSessionId: session.session_id,
      compareAudio: known ? get().compareAudio : {},
      ...(known ? {} : { compareVoices: session.voices, compareText: joinTexts(session.texts), compareBlind: session.blind }),
    });
    void loadAudio(session);
    if (session.takes.some((t) => t.status === 'running')) follow(session.session_id);
  };
  const loadAudio = async (session: CompareSession) => {
    const compare = get().client;
    for (const take of session.takes) {
      if (!compare || take.status !== 'ready' || get().compareAudio[take.take_id]) continue;
      try {
        const blob = await compare.blob(API.getCompareTakeAudio, { params: { id: session.session_id, take: take.take_id } });
        const file = await blob.arrayBuffer();
        const data = wavData(file);
        if (get().compareSession?.session_id !== session.session_id) return;
        const audio: TakeFile = { blob, file, ...(data ? { peak: samplePeak(file, data) } : {}) };
        set({ compareAudio: { ...get().compareAudio, [take.take_id]: audio } });
      } catch {
        // a take whose audio cannot be read shows without it; a refused key went to the key prompt
      }
    }
  };
  let following: string | null = null;
  /** Reads the session every second while a take is running: each take's progress, then its audio. */
  const follow = (id: string) => {
    if (following === id) return;
    following = id;
    const tick = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (get().compareSessionId !== id) return void (following = null);
      const session = await attempt((compare) => compare.call(API.getCompareSession, { params: { id } }));
      following = null;
      if (session && get().compareSessionId === id) show(session);
    };
    void tick();
  };
  return { attempt, show };
}

export type CompareGateway = ReturnType<typeof compareGateway>;
