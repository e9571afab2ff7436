import { vetModelsDir } from '../engines/model-dirs';
import { ExportStore } from '../jobs/export/export-store';
import { ProjectStore } from '../projects/store';
import { ExportService } from '../services/exports';
import { JobService } from '../services/jobs';
import { LexiconService } from '../services/lexicon';
import { OpenAISpeechService } from '../services/openai-speech';
import { ProjectService } from '../services/projects';
import { SynthesisService } from '../services/synthesis';
import { SettingsService } from '../settings/service';
import { configFromArgs } from './config';
import { settingsOf } from './config-settings';
import type { Disposers } from './disposers';
import type { Core } from './open-core';

/** The product's operations, as the routes (and the desktop's IPC) call them. */
export interface Services {
  settings: SettingsService;
  lexicon: LexiconService;
  jobs: JobService;
  exports: ExportService;
  synthesis: SynthesisService;
  projects: ProjectService;
  openaiSpeech: OpenAISpeechService;
}

/** Builds the services over the core; the exports being made are stopped at close. */
export async function buildServices(core: Core, disposers: Disposers): Promise<Services> {
  const { config, saved, keys, registry, runner, store, disk } = core;
  const settings = new SettingsService({
    dataDir: config.dataDir,
    running: settingsOf(config, saved),
    defaults: settingsOf(configFromArgs([], {})),
    saved,
    apiKey: { locked: config.apiKey !== undefined, onRegenerated: (key) => (keys.api = key) },
    vet: { program: (engineId, file) => registry.vetProgram(engineId, file), modelsDir: vetModelsDir },
  });
  const lexicon = await LexiconService.open(config.dataDir);
  const jobs = new JobService(store, runner, registry, () => settings.limits().retentionHours, lexicon);
  const exports = await ExportService.open(new ExportStore(config.dataDir), jobs, store, runner.files, disk);
  disposers.add('the exports being made', () => exports.close());
  const synthesis = new SynthesisService(
    registry,
    runner,
    () => ({ ...settings.limits(), previewMaxChars: config.previewMaxChars }),
    () => jobs.expiryOfNewJob(),
    lexicon,
  );
  const projects = new ProjectService({
    store: new ProjectStore(core.db),
    jobStore: store,
    registry,
    synthesis,
    jobs,
    lexicon,
    exports,
    maxTextLength: () => settings.limits().maxTextLength,
    disk,
  });
  const openaiSpeech = new OpenAISpeechService(registry, () => settings.current().openai_voices, lexicon);
  return { settings, lexicon, jobs, exports, synthesis, projects, openaiSpeech };
}
