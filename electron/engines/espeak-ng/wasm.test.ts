import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../audio/wav';
import { expectSpeech } from '../../testing/audio';
import { espeakWasm } from './wasm';

const speak = (voice: string, text: string) => espeakWasm.synthesize({ text, voice, rate: 1, pitch: 1, volume: 1 });

describe('embedded eSpeak NG, its data read in as it is opened', () => {
  it('speaks languages one after another from their own dictionaries, and the first again', async () => {
    const english = 'The dictionary of each language is read in when a voice first needs it.';
    const first = await speak('en-us', english);
    expectSpeech(encodeWav(first), { minSeconds: 3, maxSeconds: 8 });

    // Russian has the largest dictionary (8.5 MB of the 24 MB data file)
    const russian = await speak('ru', 'Словарь каждого языка читается, когда голос впервые его открывает.');
    expectSpeech(encodeWav(russian), { minSeconds: 3, maxSeconds: 10 });
    const german = await speak('de', 'Das Wörterbuch jeder Sprache wird gelesen, wenn eine Stimme es braucht.');
    expectSpeech(encodeWav(german), { minSeconds: 2, maxSeconds: 8 });

    const again = await speak('en-us', english);
    // eSpeak carries a few samples of state across voices (73,529 then 73,526), with or without this
    expect(Math.abs(again.samples.length - first.samples.length)).toBeLessThan(first.samples.length / 100);
  });
});
