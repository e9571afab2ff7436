/**
 * The voice library as the product offers it, whatever the transport: the catalog's voices with
 * their state, installs one at a time in the order asked (each with the components it requires
 * first), cancel and removal, and an event per change. After an install or a removal the neural
 * engine is probed again, so the voice appears in (or leaves) GET /engines without a restart.
 */
import { EventEmitter } from 'node:events';
import { readdir, rm } from 'node:fs/promises';
import { ApiError } from '../contract/errors';
import type {
  CatalogVoice,
  HashSource,
  LibraryVoice,
  VoiceEvent,
  VoiceEventType,
  VoiceLibraryList,
  VoiceLibraryQuery,
  VoiceState,
} from '../contract/voice-library';
import type { CatalogStore, LoadedCatalog } from '../voices/catalog';
import { hashSourceOf, planInstall, verificationOf, type PlannedVoice } from '../voices/install-plan';
import { installDiskKey, installedDir, installVoice, readVoiceManifest, reserveForInstall, type InstallDisk } from '../voices/installer';

export interface NeuralEngineHooks {
  /** Probes the neural engine again (its voices follow the models folder). */
  refresh(): Promise<void>;
  /** Stops its model processes, before a model's files are removed. */
  release(): Promise<void>;
}

export interface VoiceLibraryOptions {
  catalogs: CatalogStore;
  /** Where voices are installed: the first models folder. */
  modelsDir: string;
  unpackWorker: string;
  disk: InstallDisk;
  /** The voice_catalog_url setting, read at each refresh. */
  catalogUrl(): string;
  engine: NeuralEngineHooks;
}

/** Progress events of one install at most this often. */
const PROGRESS_EVERY_MS = 250;

export class VoiceLibraryService extends EventEmitter<{ voice: [VoiceEvent] }> {
  private catalog!: LoadedCatalog;
  private byId = new Map<string, CatalogVoice>();
  /** Installed voices, with where their hashes came from (their manifest). */
  private readonly installed = new Map<string, HashSource>();
  private readonly queue: string[] = [];
  /** The files of each queued install, sized and with their hashes (install-plan.ts). */
  private readonly plans = new Map<string, PlannedVoice[]>();
  /** Installs being planned (checksum lists and sizes read): a second request waits for the first. */
  private readonly planning = new Map<string, Promise<void>>();
  private readonly progress = new Map<string, { done: number; total: number }>();
  private readonly failures = new Map<string, string>();
  private active: { id: string; abort: AbortController } | undefined;
  private running: Promise<void> = Promise.resolve();
  /** The gateway is stopping: an install planned meanwhile is not started. */
  private closing = false;

  private constructor(private readonly options: VoiceLibraryOptions) {
    super();
  }

  static async open(options: VoiceLibraryOptions): Promise<VoiceLibraryService> {
    const library = new VoiceLibraryService(options);
    library.use(await options.catalogs.load());
    await library.scanInstalled();
    return library;
  }

  list(query: VoiceLibraryQuery = {}): VoiceLibraryList {
    const language = query.language?.toLowerCase();
    const voices = this.catalog.voices
      .map((voice) => this.view(voice))
      .filter(
        (voice) =>
          (!language || voice.language.toLowerCase() === language || voice.language.toLowerCase().startsWith(`${language}-`)) &&
          (!query.quality || voice.quality === query.quality) &&
          (!query.state || voice.state === query.state),
      );
    return { catalog: this.catalog.info, voices };
  }

  get(id: string): LibraryVoice {
    return this.view(this.voice(id));
  }

  /** Queues an install: 'installed' when there is nothing to do (200), else 'accepted' (202). */
  async install(id: string, acceptLicense = false): Promise<{ outcome: 'installed' | 'accepted'; voice: LibraryVoice }> {
    const entry = this.voice(id);
    const target = this.targetOf(entry);
    const plan = this.planOf(target);
    const unaccepted = [entry, ...plan].filter(
      (v, i, all) => v.license.accept_required && all.findIndex((w) => w.license.url === v.license.url) === i,
    );
    if (unaccepted.length > 0 && !acceptLicense) {
      throw new ApiError(
        'license_not_accepted',
        `${entry.name} is under ${unaccepted.map((v) => `${v.license.id} (${v.license.url})`).join(' and ')}, which limits what the audio made with it may be used for. ` +
          'Read it, then install with {"accept_license": true}.',
      );
    }
    if (this.installed.has(target.id)) return { outcome: 'installed', voice: this.view(entry) };
    if (this.stateOf(target.id) === 'queued' || this.stateOf(target.id) === 'installing')
      return { outcome: 'accepted', voice: this.view(entry) };
    let planning = this.planning.get(target.id);
    if (!planning) {
      planning = this.enqueue(target.id, plan).finally(() => this.planning.delete(target.id));
      this.planning.set(target.id, planning);
    }
    await planning;
    return { outcome: 'accepted', voice: this.view(entry) };
  }

  /** Sizes the files and takes their hashes (reading checksum lists), sets the disk aside, then queues. */
  private async enqueue(id: string, voices: CatalogVoice[]): Promise<void> {
    const plan = await planInstall(voices);
    await reserveForInstall(id, plan, this.options.disk);
    this.failures.delete(id);
    this.plans.set(id, plan);
    const total = plan.flatMap((voice) => voice.files).reduce((sum, file) => sum + file.size_bytes, 0);
    this.progress.set(id, { done: 0, total });
    this.queue.push(id);
    this.emitChange('voice-progress', id);
    this.pump();
  }

  /** Cancels a queued or running install, or removes an installed voice; a failure is forgotten. */
  async remove(id: string): Promise<void> {
    const target = this.targetOf(this.voice(id));
    // an install still reading its checksum lists is queued (or refused) first, then cancelled
    await this.planning.get(target.id)?.catch(() => undefined);
    const queued = this.queue.indexOf(target.id);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.plans.delete(target.id);
      this.options.disk.release(installDiskKey(target.id));
      this.progress.delete(target.id);
      this.emitChange('voice-progress', target.id);
    } else if (this.active?.id === target.id) {
      this.active.abort.abort(new Error('cancelled'));
      await this.running;
    } else if (this.installed.has(target.id)) {
      await this.options.engine.release();
      await rm(installedDir(this.options.modelsDir, target.id), { recursive: true, force: true });
      this.installed.delete(target.id);
      await this.options.engine.refresh();
      this.emitChange('voice-progress', target.id);
    }
    this.failures.delete(target.id);
  }

  /** Reads the catalog again from voice_catalog_url (empty: the shipped one); a failure keeps the last one. */
  async refresh(): Promise<VoiceLibraryList> {
    this.use(await this.options.catalogs.refresh(this.options.catalogUrl()));
    return this.list();
  }

  /** Stops the install in progress (the gateway is closing); staging is cleared at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    for (const id of this.queue.splice(0)) {
      this.plans.delete(id);
      this.options.disk.release(installDiskKey(id));
    }
    this.active?.abort.abort(new Error('the gateway is stopping'));
    await this.running;
  }

  private use(catalog: LoadedCatalog): void {
    this.catalog = catalog;
    this.byId = new Map(catalog.voices.map((voice) => [voice.id, voice]));
  }

  private async scanInstalled(): Promise<void> {
    const entries = await readdir(this.options.modelsDir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.filter((e) => e.isDirectory())) {
      const manifest = await readVoiceManifest(installedDir(this.options.modelsDir, entry.name));
      if (manifest?.id !== entry.name) continue;
      this.installed.set(entry.name, hashSourceOf(manifest.files));
    }
  }

  private voice(id: string): CatalogVoice {
    const voice = this.byId.get(id);
    if (!voice) throw new ApiError('voice_not_found', `No voice "${id}" in the voice catalog. GET /api/v1/tts/voice-library lists them.`);
    return voice;
  }

  /** A speaker of a model (no files of its own, one requirement) installs, and is, that model. */
  private targetOf(voice: CatalogVoice): CatalogVoice {
    return voice.files.length === 0 && voice.requires?.length === 1 ? this.voice(voice.requires[0]!) : voice;
  }

  /** What an install of `target` downloads: its requirements not yet installed, then itself. */
  private planOf(target: CatalogVoice): CatalogVoice[] {
    const requirements = (target.requires ?? []).map((id) => this.voice(id)).filter((v) => !this.installed.has(v.id));
    return [...requirements, target];
  }

  private stateOf(targetId: string): VoiceState {
    if (this.installed.has(targetId)) return 'installed';
    if (this.active?.id === targetId) return 'installing';
    if (this.queue.includes(targetId)) return 'queued';
    if (this.failures.has(targetId)) return 'failed';
    return 'available';
  }

  private view(voice: CatalogVoice): LibraryVoice {
    const target = this.targetOf(voice);
    const plan = [...(target.requires ?? []).map((id) => this.voice(id)), target];
    const sizes = plan.map((v) => v.size_bytes);
    const state = this.stateOf(target.id);
    const verification = verificationOf(plan);
    const progress = this.progress.get(target.id);
    const error = this.failures.get(target.id);
    return {
      id: voice.id,
      engine: voice.engine,
      name: voice.name,
      language: voice.language,
      quality: voice.quality,
      speakers: voice.speakers,
      size_bytes: sizes.includes(null) ? null : sizes.reduce((a, b) => a! + b!, 0),
      license: voice.license,
      pinned: verification === 'catalog',
      verification,
      state,
      ...(progress && (state === 'queued' || state === 'installing') ? { bytes_done: progress.done, bytes_total: progress.total } : {}),
      ...(state === 'failed' && error ? { error } : {}),
      ...(state === 'installed' ? { hash_source: this.installed.get(target.id)! } : {}),
      ...(voice.requires ? { requires: voice.requires } : {}),
      ...(state === 'installed' && voice.engine !== 'component' ? { voice_id: voiceIdOf(voice, target) } : {}),
    };
  }

  private emitChange(type: VoiceEventType, targetId: string): void {
    this.emit('voice', { type, voice: this.view(this.voice(targetId)) });
  }

  private pump(): void {
    if (this.active || this.queue.length === 0 || this.closing) return;
    const id = this.queue.shift()!;
    this.active = { id, abort: new AbortController() };
    this.running = this.run(id, this.active.abort.signal).finally(() => {
      this.active = undefined;
      this.pump();
    });
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    const progress = this.progress.get(id)!;
    let lastEvent = 0;
    this.emitChange('voice-progress', id);
    try {
      const plan = this.plans.get(id)!;
      for (const voice of plan) {
        // a requirement another install put in place meanwhile (two Matcha voices share a vocoder)
        if (voice.id !== id && this.installed.has(voice.id)) continue;
        await installVoice(voice, {
          modelsDir: this.options.modelsDir,
          catalog: this.catalog.info,
          unpackWorker: this.options.unpackWorker,
          disk: this.options.disk,
          diskKey: installDiskKey(id),
          signal,
          onBytes: (delta) => {
            progress.done += delta;
            if (performance.now() - lastEvent < PROGRESS_EVERY_MS) return;
            lastEvent = performance.now();
            this.emitChange('voice-progress', id);
          },
        });
        // the target counts as installed once the engine lists it (below), so that its voice answers at once
        if (voice.id !== id) this.installed.set(voice.id, hashSourceOf(voice.files));
      }
      await this.options.engine.refresh();
      this.installed.set(id, hashSourceOf(plan.at(-1)!.files));
      this.progress.delete(id);
      this.emitChange('voice-installed', id);
    } catch (error) {
      this.progress.delete(id);
      if (signal.aborted) return this.emitChange('voice-progress', id);
      this.failures.set(id, (error as Error).message);
      this.emitChange('voice-failed', id);
    } finally {
      this.plans.delete(id);
      this.options.disk.release(installDiskKey(id));
    }
  }
}

/** The voice id an installed catalog entry speaks with: the sherpa-onnx voice of its folder (and speaker). */
function voiceIdOf(voice: CatalogVoice, target: CatalogVoice): string {
  if (voice.speaker !== undefined) return `sherpa-onnx:${target.id}#${voice.speaker}`;
  return voice.speakers > 1 ? `sherpa-onnx:${voice.id}#0` : `sherpa-onnx:${voice.id}`;
}
