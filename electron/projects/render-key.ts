import { createHash } from 'node:crypto';
import type { OutputFormat } from '../contract';

/** Everything that makes a chapter's audio what it is. */
export interface RenderInputs {
  /** The chapter's text as the engine reads it: after the lexicon of its voice. */
  spoken: string;
  voice: string;
  rate: number;
  pitch: number;
  volume: number;
  format: OutputFormat;
}

/**
 * A chapter is synthesized again only when this changes (or its audio is gone): its text as
 * spoken, so that a lexicon entry re-renders exactly the chapters where it applies, and its voice,
 * prosody and format. A version prefix lets a future change of the rule re-render everything once.
 */
export function renderKey(inputs: RenderInputs): string {
  const { spoken, voice, rate, pitch, volume, format } = inputs;
  return createHash('sha256')
    .update(JSON.stringify(['v1', voice, rate, pitch, volume, format, spoken]))
    .digest('hex');
}
