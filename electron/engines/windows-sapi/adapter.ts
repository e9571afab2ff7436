import type { Voice } from '../../contract';
import type { SynthesisRequest } from '../engine';
import { runTool, type TempFiles } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';

const ID = 'windows-sapi';
/** SAPI renders to whatever format it is given: 16-bit mono PCM at this rate. */
const SAMPLE_RATE = 22050;

/** Arguments that run one PowerShell script with no profile, prompts or policy in the way. */
export function powershellArgs(script: string): string[] {
  return ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', script];
}

/**
 * A PowerShell single-quoted string: nothing inside is interpreted, a quote is doubled. PowerShell
 * also takes the typographic single quotes (U+2018 to U+201B) as quotes, so they are doubled too.
 */
export function psQuote(value: string): string {
  return `'${value.replace(/['\u2018-\u201b]/gu, (quote) => quote + quote)}'`;
}

const PREAMBLE =
  '[Console]::OutputEncoding = [Text.Encoding]::UTF8; Add-Type -AssemblyName System.Speech; $s = New-Object System.Speech.Synthesis.SpeechSynthesizer;';

/** Prints the enabled voices as JSON: Name, Culture (e.g. "en-US"), Gender, Age. */
export const LIST_SCRIPT = `${PREAMBLE} try { @($s.GetInstalledVoices() | Where-Object { $_.Enabled } | ForEach-Object { $v = $_.VoiceInfo; [pscustomobject]@{ Name = $v.Name; Culture = $v.Culture.Name; Gender = [string]$v.Gender; Age = [string]$v.Age } }) | ConvertTo-Json -Compress } finally { $s.Dispose() }`;

/**
 * Only PowerShell evaluates the expression: it prints "PowerShell Desktop" (Windows PowerShell
 * 5.1) or "PowerShell Core" (7); a program that echoes its arguments prints the expression.
 */
export const POWERSHELL_IDENTITY = printing(
  'Windows PowerShell',
  powershellArgs("'PowerShell ' + $PSVersionTable.PSEdition"),
  /^PowerShell (Desktop|Core)\r?$/m,
);

interface ListedVoice {
  Name: string;
  Culture: string;
  Gender: string;
}

/** Parses LIST_SCRIPT's output; ConvertTo-Json gives an object, not an array, for a single voice. */
export function parseSapiVoices(output: string): Voice[] {
  const trimmed = output.trim();
  if (!trimmed) return [];
  const parsed = JSON.parse(trimmed) as ListedVoice | ListedVoice[];
  return (Array.isArray(parsed) ? parsed : [parsed]).map((v) => {
    const gender = v.Gender.toLowerCase();
    return {
      id: `${ID}:${v.Name}`,
      name: v.Name,
      language: v.Culture || 'und',
      ...(gender === 'male' || gender === 'female' ? { gender } : {}),
      sampleRate: SAMPLE_RATE,
      quality: 'medium' as const,
    };
  });
}

/** SAPI's Rate runs from -10 to 10; +10 is about three times as fast, -10 a third. */
export function sapiRate(rate: number): number {
  return Math.max(-10, Math.min(10, Math.round((10 * Math.log(rate)) / Math.log(3))));
}

/** The script that writes one WAV; pitch goes through SSML prosody, the text read from its file as UTF-8. */
export function synthesisScript(request: SynthesisRequest, files: TempFiles): string {
  const pitch = Math.round((request.pitch - 1) * 100);
  const speak =
    pitch === 0
      ? '$s.Speak($text)'
      : `$s.SpeakSsml("<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='" + $s.Voice.Culture.Name + "'><prosody pitch='${pitch > 0 ? '+' : ''}${pitch}%'>" + [Security.SecurityElement]::Escape($text) + '</prosody></speak>')`;
  return [
    PREAMBLE,
    'try {',
    `$s.SelectVoice(${psQuote(request.voice)});`,
    `$s.Rate = ${sapiRate(request.rate)};`,
    `$s.SetOutputToWaveFile(${psQuote(files.wavFile)}, (New-Object System.Speech.AudioFormat.SpeechAudioFormatInfo(${SAMPLE_RATE}, [System.Speech.AudioFormat.AudioBitsPerSample]::Sixteen, [System.Speech.AudioFormat.AudioChannel]::Mono)));`,
    `$text = [IO.File]::ReadAllText(${psQuote(files.textFile)}, [Text.Encoding]::UTF8);`,
    `${speak};`,
    '} finally { $s.Dispose() }',
  ].join(' ');
}

/** Windows' SAPI 5 voices through PowerShell's System.Speech (Windows PowerShell 5.1 ships with Windows). */
export function windowsSapiAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'Windows speech (SAPI)',
      capabilities: { rate: true, pitch: true, volume: false },
      program: 'powershell.exe',
      platform: 'win32',
      installHint: 'It ships with Windows; more voices: Settings › Time & language › Speech.',
      identity: POWERSHELL_IDENTITY,
      preferredVoices: ['Microsoft Zira Desktop', 'Microsoft David Desktop'],
      async voices(executable) {
        return parseSapiVoices((await runTool(executable, powershellArgs(LIST_SCRIPT))).stdout);
      },
      command: (request, files) => ({ args: powershellArgs(synthesisScript(request, files)) }),
    },
    overrides,
  );
}
