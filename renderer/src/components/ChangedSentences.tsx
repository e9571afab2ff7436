import { useState } from 'react';
import { PREVIEW_MAX_CHARS, type PreviewBody } from '../api/contract';
import { describeError } from '../lib/format';
import { clipCodePoints } from '../lib/text';
import { useApp } from '../store';

interface Props {
  /** The sentences a change will synthesize, as written. */
  texts: readonly string[];
  /** The voice and prosody they will be said with. */
  speaking: Pick<PreviewBody, 'voice' | 'rate' | 'pitch' | 'volume'>;
}

/**
 * Sentences a change will say anew, each with a button that says it as the change will: a preview
 * with the voice and prosody given, which applies the lexicon as every synthesis does.
 */
export function ChangedSentences({ texts, speaking }: Props) {
  const [listening, setListening] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const listen = async (n: number) => {
    const client = useApp.getState().client;
    if (!client) return;
    setListening(n);
    setError(null);
    try {
      const audio = await client.preview({ text: clipCodePoints(texts[n]!, PREVIEW_MAX_CHARS), ...speaking });
      useApp.getState().playAudio(audio, { title: `Changed sentence · ${texts[n]!}` });
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setListening(null);
    }
  };
  return (
    <>
      <ol className="changed-sentences">
        {texts.map((text, n) => (
          <li key={n}>
            <button
              type="button"
              className="small ghost"
              onClick={() => void listen(n)}
              disabled={listening !== null}
              aria-label={`Listen to “${text}”`}
            >
              {listening === n ? 'Listening…' : 'Listen'}
            </button>
            <span>{text}</span>
          </li>
        ))}
      </ol>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
