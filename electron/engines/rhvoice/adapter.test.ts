import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { listRhvoiceVoices, parseVoiceInfo } from './adapter';

it('reads voice.info files (recorded from Debian rhvoice-english 1.8)', async () => {
  const voices = await listRhvoiceVoices([fileURLToPath(new URL('./fixtures/voices', import.meta.url)), '/nonexistent']);
  expect(voices.map((v) => `${v.id} ${v.name} ${v.language} ${v.gender}`)).toEqual([
    'rhvoice:alan Alan en male',
    'rhvoice:bdl Bdl en male',
    'rhvoice:clb Clb en female',
    'rhvoice:evgeniy-eng Evgeniy-Eng en male',
    'rhvoice:lyubov Lyubov en female',
    'rhvoice:slt Slt en female',
  ]);
  expect(voices[0]).toMatchObject({ sampleRate: 24000, quality: 'medium' });
  expect(parseVoiceInfo('name=A=B\nbroken\n')).toEqual({ name: 'A=B' });
});
