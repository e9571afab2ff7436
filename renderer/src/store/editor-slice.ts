import {
  API,
  codePoints,
  DEFAULT_INLINE_THRESHOLD,
  OPTION_RANGES,
  PREVIEW_MAX_CHARS,
  type OptionName,
  type SynthesizeBody,
} from '../api/contract';
import { describeError } from '../lib/format';
import { clipCodePoints, firstSentence } from '../lib/text';
import { findVoice, voiceLabel } from './engines-slice';
import type { SliceCreator, Store } from './types';

export interface EditorSlice {
  text: string;
  selection: { start: number; end: number };
  /** null: the default voice of the default engine */
  voiceId: string | null;
  rate: number;
  pitch: number;
  volume: number;
  /** Longest text answered inline; read from the gateway's settings, corrected by its answers. */
  inlineThreshold: number;
  loadSettings(): Promise<void>;
  editorBusy: 'synthesize' | 'preview' | null;
  editorError: string | null;
  editorNotice: string | null;
  setText(text: string): void;
  setSelection(start: number, end: number): void;
  setVoice(voiceId: string | null): void;
  setOption(name: OptionName, value: number): void;
  resetOptions(): void;
  synthesize(): Promise<void>;
  previewText(): Promise<void>;
}

export const createEditorSlice: SliceCreator<EditorSlice> = (set, get) => ({
  text: '',
  selection: { start: 0, end: 0 },
  voiceId: null,
  rate: OPTION_RANGES.rate.default,
  pitch: OPTION_RANGES.pitch.default,
  volume: OPTION_RANGES.volume.default,
  inlineThreshold: DEFAULT_INLINE_THRESHOLD,
  editorBusy: null,
  editorError: null,
  editorNotice: null,

  async loadSettings() {
    try {
      const view = await get().client?.call(API.getSettings);
      if (view) set({ inlineThreshold: view.settings.inline_threshold });
    } catch {
      // Settings unreadable (a failing gateway): the default threshold stands, corrected by answers (a 202).
    }
  },

  setText: (text) => set({ text, editorError: null }),
  setSelection: (start, end) => set({ selection: { start, end } }),
  setVoice: (voiceId) => set({ voiceId }),
  setOption: (name, value) => {
    const { min, max } = OPTION_RANGES[name];
    set({ [name]: Math.min(max, Math.max(min, value)) } as Pick<EditorSlice, OptionName>);
  },
  resetOptions: () => set({ rate: OPTION_RANGES.rate.default, pitch: OPTION_RANGES.pitch.default, volume: OPTION_RANGES.volume.default }),

  async synthesize() {
    const { client, text } = get();
    if (!client || !text.trim()) return;
    const body = synthesisBody(get());
    const length = codePoints(text);
    set({ editorBusy: 'synthesize', editorError: null, editorNotice: null });
    try {
      const result = await client.synthesize(body);
      if (result.kind === 'audio') {
        set({ inlineThreshold: Math.max(get().inlineThreshold, length) });
        get().playAudio(result.audio, { title: `Synthesis · ${voiceLabel(get(), result.audio.voice)}` });
      } else {
        set({ inlineThreshold: Math.min(get().inlineThreshold, length - 1), editorNotice: 'Queued as a job. Follow it in the job list.' });
        await get().refreshJob(result.accepted.job_id);
      }
    } catch (error) {
      set({ editorError: describeError(error) });
    } finally {
      set({ editorBusy: null });
    }
  },

  /** Speaks the selection, or the first sentence, with the current voice and options. */
  async previewText() {
    const { client } = get();
    const text = previewSource(get());
    if (!client || !text) return;
    set({ editorBusy: 'preview', editorError: null, editorNotice: null });
    try {
      const { voice, rate, pitch, volume } = synthesisBody(get());
      const audio = await client.preview({ text: clipCodePoints(text, PREVIEW_MAX_CHARS), voice, rate, pitch, volume });
      get().playAudio(audio, { title: `Preview · ${voiceLabel(get(), audio.voice)}` });
    } catch (error) {
      set({ editorError: describeError(error) });
    } finally {
      set({ editorBusy: null });
    }
  },
});

export function synthesisBody(state: Store): SynthesizeBody {
  const body: SynthesizeBody = { text: state.text, rate: state.rate, pitch: state.pitch, volume: state.volume };
  if (state.voiceId) body.voice = state.voiceId;
  return body;
}

/** The selected text when there is a selection, else the first sentence. */
export function previewSource(state: Pick<Store, 'text' | 'selection' | 'voiceId' | 'engines' | 'voices'>): string {
  const { start, end } = state.selection;
  const selected = state.text.slice(Math.min(start, end), Math.max(start, end)).trim();
  if (selected) return selected;
  const language = state.voiceId ? findVoice(state, state.voiceId)?.language : undefined;
  return firstSentence(state.text, language);
}

/** The voice a synthesis will use: the chosen one, else the default voice of the first available engine. */
export function effectiveVoiceId(state: Pick<Store, 'voiceId' | 'engines'>): string {
  return state.voiceId ?? state.engines.find((e) => e.available)?.defaultVoice ?? '';
}

/** Whether text of this length will come back inline or as a queued job. */
export function deliveryHint(length: number, threshold: number): 'empty' | 'inline' | 'job' {
  if (length === 0) return 'empty';
  return length <= threshold ? 'inline' : 'job';
}
