import type { Project, RenderPlan } from '../api/contract';
import { ChangedSentences } from './ChangedSentences';

/**
 * What a render would synthesize (docs/projects.md#what-a-change-costs), and the sentences
 * themselves to listen to before it runs, said with the project's voice and the lexicon.
 */
export function RenderPlanHint({ plan, project }: { plan: RenderPlan; project: Project }) {
  const texts = plan.chapters.flatMap((c) => c.texts);
  const { voice, rate, pitch, volume } = project;
  return (
    <div className="hint render-plan">
      <span data-testid="render-plan" title={texts.join('\n')}>
        To synthesize: {plan.summary}
      </span>
      {texts.length > 0 && (
        <details>
          <summary>Listen to them</summary>
          <ChangedSentences texts={texts} speaking={{ voice, rate, pitch, volume }} />
        </details>
      )}
    </div>
  );
}
