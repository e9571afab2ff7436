import type { Settings, SettingsUpdate, SettingsView } from '../contract/settings';
import type { SettingsService } from '../settings/service';
import type { Confirm } from './confirm';

/** What a settings change would let Orator run or load that it does not now, one line each. */
export function newPowers(current: Settings, update: SettingsUpdate): string[] {
  const programs = Object.entries(update.engine_executables)
    .filter(([engine, file]) => current.engine_executables[engine] !== file)
    .map(([engine, file]) => `Run ${file} as the ${engine} engine`);
  const models = update.models_dir && update.models_dir !== current.models_dir ? [`Load voice models from ${update.models_dir}`] : [];
  const catalog =
    update.voice_catalog_url && update.voice_catalog_url !== current.voice_catalog_url
      ? [`Offer the voices of the catalog at ${update.voice_catalog_url} for download`]
      : [];
  return [...programs, ...models, ...catalog];
}

/** A value as the confirmation shows it: short enough for a dialog line. */
const shown = (value: unknown) => {
  const text = JSON.stringify(value ?? null);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/**
 * Every other setting the update changes, one line each: over HTTP each needs the admin token
 * (limits, retention, port, the OpenAI voice map, programs taken away), so over IPC each needs
 * the person's consent.
 */
export function otherChanges(current: Settings, update: SettingsUpdate): string[] {
  const lines: string[] = [];
  for (const name of Object.keys(update) as (keyof SettingsUpdate)[]) {
    // said by newPowers (a catalog set, not one cleared back to the shipped one)
    if (name === 'engine_executables' || name === 'models_dir' || (name === 'voice_catalog_url' && update.voice_catalog_url)) continue;
    if (JSON.stringify(update[name]) !== JSON.stringify(current[name]))
      lines.push(`${name}: ${shown(current[name])} → ${shown(update[name])}`);
  }
  const removed = Object.keys(current.engine_executables).filter((engine) => !(engine in update.engine_executables));
  for (const engine of removed) lines.push(`Stop running ${current.engine_executables[engine]} as the ${engine} engine`);
  if (update.models_dir === '' && current.models_dir !== '') lines.push(`Stop loading voice models from ${current.models_dir}`);
  return lines;
}

/**
 * The desktop settings window's changes: made in the main process, with the person's consent in a
 * native dialog (which page script cannot click) before any setting changes, since over HTTP every
 * one of them needs the admin token, which the page does not hold; the strongest warning when
 * Orator may run a new program or load models from a new folder; and before the key that every
 * tool holds is replaced.
 */
export function settingsActions(settings: SettingsService, confirm: Confirm) {
  return {
    async saveSettings(update: SettingsUpdate): Promise<SettingsView> {
      // nothing to confirm when a flag or variable of this run keeps the change from being made
      settings.refuseLocked(update);
      const current = settings.current();
      const powers = newPowers(current, update);
      const others = otherChanges(current, update);
      const question =
        powers.length > 0
          ? {
              message: 'Let Orator run this?',
              detail: `${[...powers, ...others].join('\n')}\n\nOrator passes text to these programs and models. Allow only what you installed yourself.`,
            }
          : { message: 'Change these settings?', detail: others.join('\n') };
      if (powers.length + others.length > 0 && !(await confirm({ ...question, action: 'Save' })))
        throw new Error('Not saved: the change was not confirmed.');
      return settings.update(update);
    },
    async regenerateApiKey(): Promise<string> {
      const agreed = await confirm({
        message: 'Replace the API key?',
        detail: 'Every tool that uses the current key loses access until it is given the new one.',
        action: 'Replace key',
      });
      if (!agreed) throw new Error('The key was not replaced: the change was not confirmed.');
      return settings.regenerateApiKey();
    },
  };
}
