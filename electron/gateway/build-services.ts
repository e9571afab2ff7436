import path from 'node:path';
import { vetModelsDir } from '../engines/model-dirs';
import { ExportStore } from '../jobs/export/export-store';
import { SegmentPool } from '../jobs/export/segment-pool';
import { SegmentStore } from '../jobs/export/segment-store';
import { ProjectStore } from '../projects/store';
import { CompareService } from '../services/compare-sessions';
import { ExportService } from '../services/exports';
import { JobRerenders } from '../services/job-rerender';
import { JobService } from '../services/jobs';
import { LexiconService } from '../services/lexicon';
import { OpenAISpeechService } from '../services/openai-speech';
import { ProjectService } from '../services/projects';
import { RenderCacheService } from '../services/render-cache';
import { SynthesisService } from '../services/synthesis';
import { SettingsService } from '../settings/service';
import { CompareStore } from '../storage/compare-store';
import { VoiceResolver } from '../services/voices';
import { VoiceLibraryService } from '../services/voice-library';
import { DocumentReader } from '../projects/document-reader';
import { CatalogStore } from '../voices/catalog';
import { clearStaging } from '../voices/installer';
import type { Disposers } from './disposers';
import type { Core } from './open-core';

/** The product's operations, as the routes (and the desktop's IPC) call them. */
export interface Services {
  settings: SettingsService;
  lexicon: LexiconService;
  jobs: JobService;
  rerenders: JobRerenders;
  exports: ExportService;
  synthesis: SynthesisService;
  projects: ProjectService;
  openaiSpeech: OpenAISpeechService;
  voiceLibrary: VoiceLibraryService;
  compare: CompareService;
  renderCache: RenderCacheService;
}

/** Builds the services over the core; the exports being made, installs and manuscript reading are stopped at close. */
export async function buildServices(core: Core, disposers: Disposers): Promise<Services> {
  const { config, saved, keys, registry, runner, store, disk } = core;
  const settings = new SettingsService({
    dataDir: config.dataDir,
    running: core.settings,
    saved,
    apiKey: {
      fixedBy: config.apiKey !== undefined ? (config.apiKeySource ?? 'the options Orator started with') : undefined,
      onRegenerated: (key) => (keys.api = key),
    },
    vet: { program: (engineId, file) => registry.vetProgram(engineId, file), modelsDir: vetModelsDir },
  });
  const lexicon = await LexiconService.open(config.dataDir);
  const voiceLibrary = await openVoiceLibrary(core, () => settings.current().voice_catalog_url);
  disposers.add('the voice installs', () => voiceLibrary.close());
  const jobs = new JobService(store, runner, registry, () => settings.limits().retentionHours, lexicon);
  const rerenders = new JobRerenders({ jobs, store, runner, registry, lexicon, cache: core.renderCache, concurrency: core.pool.threads });
  const projectStore = new ProjectStore(core.db);
  // a chapter's title names its file in a ZIP export, without the book's title before it
  // an export's segments are encoded on threads of their own, from the bundle beside the engines' one
  const segments = new SegmentPool(path.join(path.dirname(core.pool.workerFile), 'export-worker.mjs'));
  disposers.add('the export threads', () => segments.close());
  const cacheBytes = (mb: number) => 1024 * 1024 * mb;
  const work = { pool: segments, store: await SegmentStore.open(config.dataDir, cacheBytes(config.exportCacheMb)) };
  // kept segments give their disk back to other work, as the render cache does
  disk.reclaimFrom(work.store);
  // a smaller bound evicts at once (the export cache: or when the export being made ends), not at the next use
  settings.onUpdate(async (chosen) => {
    await core.renderCache.bound(cacheBytes(chosen.render_cache_mb));
    await work.store.bound(cacheBytes(chosen.export_cache_mb));
  });
  const exports = await ExportService.open(
    new ExportStore(config.dataDir),
    jobs,
    store,
    runner.files,
    disk,
    (id) => projectStore.chapterTitleOfJob(id),
    work,
  );
  disposers.add('the exports being made', () => exports.close());
  // OpenAI's voice names speak on every route, mapped by the openai_voices setting as it is now
  const voices = new VoiceResolver(registry, () => settings.current().openai_voices);
  const synthesis = new SynthesisService(
    voices,
    runner,
    () => ({ ...settings.limits(), previewMaxChars: config.previewMaxChars }),
    () => jobs.expiryOfNewJob(),
    lexicon,
  );
  // manuscript files are read on a thread of their own, from the bundle beside the engines' one
  const documents = new DocumentReader(path.join(path.dirname(core.pool.workerFile), 'document-worker.mjs'));
  disposers.add('the manuscript reader', () => documents.close());
  const projects = new ProjectService({
    store: projectStore,
    jobStore: store,
    voices,
    synthesis,
    jobs,
    lexicon,
    exports,
    maxTextLength: () => settings.limits().maxTextLength,
    disk,
    documents,
    renderCache: core.renderCache,
    concurrency: core.pool.threads,
  });
  // a sentence edited in a chapter's audio belongs to the chapter (services/projects.ts)
  jobs.observeSentenceEdits((edit) => projects.sentenceEdited(edit));
  const openaiSpeech = new OpenAISpeechService(registry, voices, lexicon, synthesis);
  const compare = new CompareService({
    store: new CompareStore(core.db),
    jobStore: store,
    registry,
    synthesis,
    jobs,
    jobWav: (jobId) => runner.files.audioFile(jobId, 'wav'),
    dataDir: config.dataDir,
  });
  const renderCache = new RenderCacheService(core.renderCache);
  return { settings, lexicon, jobs, rerenders, exports, synthesis, projects, openaiSpeech, voiceLibrary, compare, renderCache };
}

/** The voice library, installing into the first models folder; what an install killed mid-way left goes first. */
async function openVoiceLibrary(core: Core, catalogUrl: () => string): Promise<VoiceLibraryService> {
  const { config, modelDirs, registry, disk } = core;
  await clearStaging(modelDirs[0]!);
  const distDir = path.dirname(core.pool.workerFile);
  return VoiceLibraryService.open({
    catalogs: new CatalogStore(config.dataDir, path.join(distDir, '..', 'resources', 'voice-catalog.json')),
    modelsDir: modelDirs[0]!,
    unpackWorker: path.join(distDir, 'unpack-worker.mjs'),
    disk,
    catalogUrl,
    engine: { refresh: () => registry.refresh('sherpa-onnx'), release: () => registry.release('sherpa-onnx') },
  });
}
