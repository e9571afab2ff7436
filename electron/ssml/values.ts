/**
 * SSML attribute values as Orator's options: `<prosody>` rate, pitch and volume as multipliers
 * (clamped to the API's ranges), `<emphasis>` levels, `<break>` times and strengths. A value that
 * cannot be read throws SsmlValueError; the parser adds where it is. docs/ssml.md has the tables.
 */
import { OPTION_RANGES, type OptionName } from '../contract';

export interface ProsodyValues {
  rate: number;
  pitch: number;
  volume: number;
}

/** A value the parser cannot use: the message names the attribute and what it takes. */
export class SsmlValueError extends Error {}

/** The longest silence one break (or several in a row) may make. */
export const MAX_BREAK_MS = 10_000;

/** `<break strength>` in milliseconds; weak and strong match the pauses between sentences and paragraphs. */
export const BREAK_STRENGTH_MS: Readonly<Record<string, number>> = {
  none: 0,
  'x-weak': 100,
  weak: 250,
  medium: 400,
  strong: 700,
  'x-strong': 1200,
};

/** Labels, as multipliers of the request's own value (SSML's "default" is the request's option). */
const LABELS: Readonly<Record<OptionName, Readonly<Record<string, number>>>> = {
  rate: { 'x-slow': 0.5, slow: 0.75, medium: 1, fast: 1.5, 'x-fast': 2, default: 1 },
  pitch: { 'x-low': 0.7, low: 0.85, medium: 1, high: 1.15, 'x-high': 1.3, default: 1 },
  volume: { silent: 0, 'x-soft': 0.25, soft: 0.5, medium: 1, loud: 1.5, 'x-loud': 2, default: 1 },
};

const ACCEPTED: Readonly<Record<OptionName, string>> = {
  rate: 'a label (x-slow … x-fast), a percentage ("80%", "+10%") or a multiplier ("1.2")',
  pitch: 'a label (x-low … x-high), a percentage ("90%", "-10%") or semitones ("+2st")',
  volume: 'a label (silent, x-soft … x-loud), a percentage ("50%", "+20%") or decibels ("-6dB")',
};

const clamp = (name: OptionName, value: number) => Math.min(OPTION_RANGES[name].max, Math.max(OPTION_RANGES[name].min, value));

/**
 * One prosody attribute: labels, unsigned percentages and plain numbers are relative to the
 * request's value (`base`); signed percentages, semitones and decibels to the enclosing one.
 */
export function prosodyValue(name: OptionName, raw: string, current: number, base: number): number {
  const value = raw.trim().toLowerCase();
  const label = LABELS[name][value];
  if (label !== undefined) return clamp(name, base * label);
  const match = /^([+-]?)(\d+(?:\.\d+)?|\.\d+)(%|st|db)?$/.exec(value);
  const unit = match?.[3] ?? '';
  const allowed = unit === '' ? name === 'rate' : unit === '%' || (unit === 'st' ? name === 'pitch' : name === 'volume');
  if (!match || !allowed) throw new SsmlValueError(`"${raw}" is not a ${name} Orator reads; use ${ACCEPTED[name]}.`);
  const sign = match[1] === '-' ? -1 : 1;
  const number = Number(match[2]);
  if (unit === 'st') return clamp(name, current * 2 ** ((sign * number) / 12));
  if (unit === 'db') return clamp(name, current * 10 ** ((sign * number) / 20));
  if (match[1] === '') return clamp(name, base * (unit === '%' ? number / 100 : number));
  return clamp(name, current * (1 + (sign * number) / (unit === '%' ? 100 : 1)));
}

/** `<prosody>`'s attributes over the enclosing values. */
export function prosodyOf(attributes: Record<string, string>, current: ProsodyValues, base: ProsodyValues): ProsodyValues {
  const next = { ...current };
  for (const name of ['rate', 'pitch', 'volume'] as const) {
    const raw = attributes[name];
    if (raw !== undefined) next[name] = prosodyValue(name, raw, current[name], base[name]);
  }
  return next;
}

/** `<emphasis level>`: slower, a little higher and louder (or the reverse for "reduced"). */
export const EMPHASIS: Readonly<Record<string, ProsodyValues>> = {
  strong: { rate: 0.8, pitch: 1.1, volume: 1.4 },
  moderate: { rate: 0.9, pitch: 1.05, volume: 1.2 },
  reduced: { rate: 1.1, pitch: 0.95, volume: 0.8 },
  none: { rate: 1, pitch: 1, volume: 1 },
};

export function emphasisOf(level: string | undefined, current: ProsodyValues): ProsodyValues {
  const factors = EMPHASIS[level ?? 'moderate'];
  if (!factors) throw new SsmlValueError(`emphasis level "${level}" is not one of ${Object.keys(EMPHASIS).join(', ')}.`);
  return {
    rate: clamp('rate', current.rate * factors.rate),
    pitch: clamp('pitch', current.pitch * factors.pitch),
    volume: clamp('volume', current.volume * factors.volume),
  };
}

/** `<break>`: `time` ("500ms", "1.5s") wins over `strength`; neither is a medium break. At most MAX_BREAK_MS. */
export function breakMs(attributes: Record<string, string>): number {
  const { time, strength } = attributes;
  if (time !== undefined) {
    const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)\s*$/i.exec(time);
    if (!match) throw new SsmlValueError(`break time "${time}" is not a time; write it as "500ms" or "1.5s".`);
    const ms = Number(match[1]) * (match[2]!.toLowerCase() === 's' ? 1000 : 1);
    return Math.min(MAX_BREAK_MS, Math.round(ms));
  }
  const ms = BREAK_STRENGTH_MS[strength ?? 'medium'];
  if (ms === undefined)
    throw new SsmlValueError(`break strength "${strength}" is not one of ${Object.keys(BREAK_STRENGTH_MS).join(', ')}.`);
  return ms;
}

export const sameProsody = (a: ProsodyValues, b: ProsodyValues) => a.rate === b.rate && a.pitch === b.pitch && a.volume === b.volume;
