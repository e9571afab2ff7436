import type { LibraryVoice, VoiceLibraryList } from '../contract/voice-library';
import type { VoiceLibraryService } from '../services/voice-library';
import type { Confirm } from './confirm';

const megabytes = (bytes: number | null) => (bytes === null ? 'an unknown size' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

const VERIFIED_BY: Record<LibraryVoice['verification'], string> = {
  catalog: '',
  checksum_list: " (some against the publisher's checksum list, read now)",
  none: '',
};

/** What the install dialog says: the voice, what it downloads from where, and its licence. */
export function installQuestion(voice: LibraryVoice, catalogUrl: string) {
  const license = voice.license.accept_required
    ? `Its licence (${voice.license.id}, ${voice.license.url}) may limit what the audio you make with it can be used for ` +
      '(non-commercial or research only). Installing accepts it.'
    : `Licence: ${voice.license.id} (${voice.license.url}).`;
  return {
    message: `Install ${voice.name}?`,
    detail: `Orator downloads ${megabytes(voice.size_bytes)} from the catalog at ${catalogUrl}, checks every file's hash${VERIFIED_BY[voice.verification]}, and loads the voice's model.\n\n${license}`,
    action: 'Install',
  };
}

/**
 * The studio's voice library in the desktop app: the page holds no admin token, so the main process
 * installs and removes, each after the person agrees in a native dialog, which page script cannot
 * click. A running install is cancelled without asking: nothing is kept of it.
 */
export function voiceLibraryActions(library: VoiceLibraryService, confirm: Confirm) {
  return {
    async installVoice(id: string): Promise<LibraryVoice> {
      const voice = library.get(id);
      if (voice.state === 'installed') return voice;
      if (!(await confirm(installQuestion(voice, library.list().catalog.url)))) {
        throw new Error(`${voice.name} was not installed: the install was not confirmed.`);
      }
      return (await library.install(id, voice.license.accept_required)).voice;
    },
    async removeVoice(id: string): Promise<void> {
      const voice = library.get(id);
      if (voice.state === 'installed') {
        const agreed = await confirm({
          message: `Remove ${voice.name}?`,
          detail: 'Its folder is deleted from the models folder; installing it again downloads it again.',
          action: 'Remove',
        });
        if (!agreed) throw new Error(`${voice.name} was not removed: the removal was not confirmed.`);
      }
      await library.remove(id);
    },
    refreshVoiceLibrary: (): Promise<VoiceLibraryList> => library.refresh(),
  };
}
