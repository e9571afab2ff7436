/**
 * Measures each available engine's real-time factor (synthesis time / audio duration, lower is
 * faster) on one paragraph with its default voice, warm, in this process's pool and children.
 * Run `npm run build` first (the worker bundle), then: npx tsx electron/tools/engine-rtf.ts [runs]
 */
import path from 'node:path';
import { knownEngines } from '../engines/installed';
import { EmbeddedPool } from '../engines/worker-pool';

const PARAGRAPH =
  'The river wound slowly through the valley, carrying leaves from the autumn trees. She opened the old book and read the first page aloud to the quiet room. ' +
  'Nobody expected the storm to arrive so early, yet the sky had warned them all morning. In the evening the lamps were lit one by one along the narrow street. ' +
  'Far away, a train whistled as it crossed the bridge, and the dogs of the village answered it. The baker counted the loaves twice before closing the shutters for the night.';
const runs = Number(process.argv[2] ?? 3);

const pool = new EmbeddedPool({ workerFile: path.resolve('dist/synth-worker.mjs'), threads: 1 });
console.log(`${PARAGRAPH.length} characters, best of ${runs} warm runs\n`);
console.log(['engine', 'voices', 'voice', 'audio s', 'synth ms', 'RTF', 'chars/s'].join('\t'));
for (const engine of knownEngines(pool)) {
  const probe = await engine.probe();
  if (!probe.available) {
    console.log(`${engine.id}\t-\tunavailable: ${probe.reason.slice(0, 100)}`);
    continue;
  }
  const voice = probe.defaultVoice.slice(engine.id.length + 1);
  const request = { text: PARAGRAPH, voice, rate: 1, pitch: 1, volume: 1 };
  await engine.synthesize({ ...request, text: 'Warming up.' }, { lane: 'interactive' });
  let best = Infinity;
  let seconds = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const pcm = await engine.synthesize(request, { lane: 'interactive' });
    best = Math.min(best, performance.now() - started);
    seconds = pcm.samples.length / pcm.sampleRate;
  }
  const rtf = best / 1000 / seconds;
  console.log(
    [
      engine.id,
      probe.voices.length,
      voice,
      seconds.toFixed(1),
      Math.round(best),
      rtf.toFixed(3),
      Math.round(PARAGRAPH.length / (best / 1000)),
    ].join('\t'),
  );
}
await pool.close();
