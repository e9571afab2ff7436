import { Type, type Static } from 'typebox';
import { JobAccepted } from './synthesis';

/** Sentences of a chapter a render plan lists, at most; the counts are of all. */
export const RENDER_PLAN_LISTED = 100;

export const RenderPlanChapter = Type.Object({
  index: Type.Integer({ description: 'The chapter, from 0' }),
  sentences: Type.Integer({ minimum: 0, description: 'Sentences of it an engine will speak' }),
  characters: Type.Integer({ minimum: 0, description: 'Their characters as spoken' }),
  texts: Type.Array(Type.String(), { description: `Those sentences as written, in reading order, the first ${RENDER_PLAN_LISTED}` }),
});
export type RenderPlanChapter = Static<typeof RenderPlanChapter>;

/**
 * What a render of the project would cost now (GET /projects/{id}/render-plan): the chapters it
 * would queue, and the sentences of them an engine would speak, found neither in the chapters'
 * last render nor in the render cache (docs/projects.md#what-a-change-costs).
 */
export const RenderPlan = Type.Object({
  chapters: Type.Array(RenderPlanChapter, { description: 'Each chapter a render would queue, in reading order' }),
  sentences: Type.Integer({ minimum: 0, description: 'Sentences to synthesize, a sentence said in several places once' }),
  characters: Type.Integer({ minimum: 0 }),
  seconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description:
      "About how long the engine will take to speak them, from how fast it spoke renders' sentences since the gateway started; null before it spoke any",
  }),
  summary: Type.String({ description: 'In words: "37 sentences in 9 chapters, about 40 s"' }),
});
export type RenderPlan = Static<typeof RenderPlan>;

export const ChangedSentence = Type.Object({
  index: Type.Integer({ minimum: 0, description: "The sentence's index in the job's timings, from 0" }),
  text: Type.String({ description: 'The sentence as written (a preview of it is said as the re-render will say it)' }),
});
export type ChangedSentence = Static<typeof ChangedSentence>;

/**
 * What a re-render of a finished job with the lexicon as it is now would cost
 * (GET /jobs/{id}/rerender-plan; docs/api.md#re-render-a-job): its sentences said differently
 * from its audio, and those of them an engine would speak (not in the render cache).
 */
export const JobRerenderPlan = Type.Object({
  changed: Type.Integer({
    minimum: 0,
    description: "Sentences not taken from the job's audio: said differently now, or its audio cannot be cut",
  }),
  sentences: Type.Integer({
    minimum: 0,
    description: 'Of them, those an engine will speak: not in the render cache, a sentence said twice once',
  }),
  characters: Type.Integer({ minimum: 0, description: 'Their characters as spoken' }),
  seconds: RenderPlan.properties.seconds,
  texts: Type.Array(ChangedSentence, { description: `The changed sentences, in reading order, the first ${RENDER_PLAN_LISTED}` }),
  summary: Type.String({ description: 'In words: "3 sentences to synthesize, about 2 s"' }),
  speaking: Type.Object(
    { voice: Type.String(), rate: Type.Number(), pitch: Type.Number(), volume: Type.Number() },
    { description: 'The voice and prosody of the job: POST /preview with these and a sentence says it as the re-render will' },
  ),
});
export type JobRerenderPlan = Static<typeof JobRerenderPlan>;

/** The receipt of a re-render (POST /jobs/{id}/rerender): the new job, and what of it is made already. */
export const JobRerenderAccepted = Type.Object({
  ...JobAccepted.properties,
  sentences: Type.Integer({ minimum: 0, description: 'Sentences an engine will speak (as the plan said)' }),
  reused: Type.Integer({ minimum: 0, description: "Sentences taken from the old job's audio" }),
});
export type JobRerenderAccepted = Static<typeof JobRerenderAccepted>;
