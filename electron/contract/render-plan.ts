import { Type, type Static } from 'typebox';

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
