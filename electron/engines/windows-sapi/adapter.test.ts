import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LIST_SCRIPT, parseSapiVoices, powershellArgs, psQuote, sapiRate, synthesisScript, windowsSapiAdapter } from './adapter';

it('parses the JSON the listing script prints, for several voices and for one', () => {
  // The shape ConvertTo-Json gives LIST_SCRIPT's objects (Windows' stock desktop voices).
  const voices = parseSapiVoices(readFileSync(new URL('./fixtures/voices.json', import.meta.url), 'utf8'));
  expect(voices.map((v) => [v.id, v.language, v.gender])).toEqual([
    ['windows-sapi:Microsoft David Desktop', 'en-US', 'male'],
    ['windows-sapi:Microsoft Zira Desktop', 'en-US', 'female'],
    ['windows-sapi:Microsoft Hedda Desktop', 'de-DE', 'female'],
  ]);
  expect(parseSapiVoices('{"Name":"Microsoft Zira Desktop","Culture":"en-US","Gender":"Female","Age":"Adult"}')).toHaveLength(1);
  expect(parseSapiVoices('')).toEqual([]);
});

it('runs PowerShell without profile or prompts', () => {
  expect(powershellArgs(LIST_SCRIPT).slice(0, 5)).toEqual(['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command']);
  expect(LIST_SCRIPT).toContain('GetInstalledVoices()');
});

it('quotes voice names and paths so that nothing in them runs', () => {
  expect(psQuote("O'Brien $(evil)")).toBe("'O''Brien $(evil)'");
  // PowerShell ends a single-quoted string at any of these too: doubled, they stay text.
  expect(psQuote('Zira\u2019; calc; \u2018')).toBe("'Zira\u2019\u2019; calc; \u2018\u2018'");
  expect(psQuote('a\u201ab\u201bc')).toBe("'a\u201a\u201ab\u201b\u201bc'");
  const script = synthesisScript(
    { text: 'x', voice: "Zira's", rate: 3, pitch: 1, volume: 1 },
    { textFile: 'C:\\t\\in.txt', wavFile: 'C:\\t\\out.wav' },
  );
  expect(script).toContain("$s.SelectVoice('Zira''s');");
  expect(script).toContain('$s.Rate = 10;');
  expect(script).toContain("$s.SetOutputToWaveFile('C:\\t\\out.wav', (New-Object System.Speech.AudioFormat.SpeechAudioFormatInfo(22050,");
  expect(script).toContain("$text = [IO.File]::ReadAllText('C:\\t\\in.txt', [Text.Encoding]::UTF8);");
  expect(script).toContain('$s.Speak($text);');
});

it('maps rate onto -10…10 and pitch onto SSML prosody', () => {
  expect([sapiRate(0.5), sapiRate(1), sapiRate(2)]).toEqual([-6, 0, 6]);
  const script = synthesisScript({ text: 'x', voice: 'v', rate: 1, pitch: 1.3, volume: 1 }, { textFile: 'a', wavFile: 'b' });
  expect(script).toContain("<prosody pitch='+30%'>\" + [Security.SecurityElement]::Escape($text) + '</prosody></speak>'");
});

it('is unavailable elsewhere than on Windows', async () => {
  expect(await windowsSapiAdapter({ platform: 'linux' }).probe()).toEqual({
    available: false,
    reason: 'Windows speech (SAPI) exists only on Windows.',
  });
});
