import type { Settings, SettingsUpdate, SettingsView } from '../contract/settings';
import type { SettingsService } from '../settings/service';

/** Asks the person in a native dialog; true when they agree. */
export type Confirm = (question: { message: string; detail: string; action: string }) => Promise<boolean>;

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

/**
 * The desktop settings window's changes: made in the main process, with the person's consent in a
 * native dialog (which page script cannot click) before Orator may run a new program or load models
 * from a new folder, and before the key that every tool holds is replaced.
 */
export function settingsActions(settings: SettingsService, confirm: Confirm) {
  return {
    async saveSettings(update: SettingsUpdate): Promise<SettingsView> {
      const powers = newPowers(settings.current(), update);
      if (powers.length > 0) {
        const agreed = await confirm({
          message: 'Let Orator run this?',
          detail: `${powers.join('\n')}\n\nOrator passes text to these programs and models. Allow only what you installed yourself.`,
          action: 'Save',
        });
        if (!agreed) throw new Error('Not saved: the change was not confirmed.');
      }
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
