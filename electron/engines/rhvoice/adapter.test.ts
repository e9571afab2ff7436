import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { listRhvoiceVoices, parseVoiceInfo, rhvoiceVoiceName } from './adapter';

it('reads voice.info files (recorded from Debian rhvoice-english 1.8)', async () => {
  const voices = await listRhvoiceVoices([fileURLToPath(new URL('./fixtures/voices', import.meta.url)), '/nonexistent']);
  expect(voices.map((v) => `${v.id} ${v.name} ${v.language} ${v.gender}`)).toEqual([
    'rhvoice:alan Alan (Scottish English, male) en-GB-scotland male',
    'rhvoice:bdl BDL (US English, male) en-US male',
    'rhvoice:clb CLB (US English, female) en-US female',
    'rhvoice:evgeniy-eng Evgeniy (English, male) en male',
    'rhvoice:lyubov Lyubov (English, female) en female',
    'rhvoice:slt SLT (US English, female) en-US female',
  ]);
  expect(voices[0]).toMatchObject({ sampleRate: 24000, quality: 'medium' });
  expect(parseVoiceInfo('name=A=B\nbroken\n')).toEqual({ name: 'A=B' });
});

it('names voices of other languages from voice.info the same way', () => {
  expect(rhvoiceVoiceName('Evgeniy-Rus', 'ru', 'male')).toBe('Evgeniy (Russian, male)');
  expect(rhvoiceVoiceName('Anna', 'ru', 'female')).toBe('Anna (Russian, female)');
  expect(rhvoiceVoiceName('Leticia-F123', 'pt-BR', 'female')).toBe('Leticia-F123 (Brazilian Portuguese, female)');
  expect(rhvoiceVoiceName('Natan', 'und', undefined)).toBe('Natan');
});
