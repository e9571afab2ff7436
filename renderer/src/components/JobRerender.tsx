import { useState } from 'react';
import { API, type Job, type JobRerenderPlan } from '../api/contract';
import { describeError } from '../lib/format';
import { useApp } from '../store';
import { ChangedSentences } from './ChangedSentences';

interface Props {
  job: Job;
  /** What the buttons' labels call the job. */
  name: string;
}

/**
 * "Re-render with lexicon" of a finished job: first what it would cost and the sentences it would
 * say anew, each to listen to; then, confirmed, a new job that takes every other sentence from this
 * one's audio (docs/projects.md#jobs-re-rendered-with-the-lexicon). The new job joins the list by
 * its "added" event.
 */
export function JobRerender({ job, name }: Props) {
  const [plan, setPlan] = useState<JobRerenderPlan | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const call = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  const params = { params: { id: job.job_id } };
  const open = () => call(async () => setPlan(await useApp.getState().client!.call(API.getJobRerenderPlan, params)));
  const run = () =>
    call(async () => {
      await useApp.getState().client!.call(API.rerenderJob, params);
      setPlan(null);
    });

  return (
    <div className="job-rerender">
      {plan ? (
        <div role="group" aria-label={`Re-render of job ${name}`}>
          <p className="hint" data-testid="rerender-plan">
            {plan.summary}
          </p>
          <ChangedSentences texts={plan.texts.map((t) => t.text)} speaking={plan.speaking} />
          <button type="button" className="small secondary" onClick={() => void run()} disabled={busy}>
            Re-render
          </button>
          <button type="button" className="small ghost" onClick={() => setPlan(null)} disabled={busy}>
            Not now
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="small ghost"
          onClick={() => void open()}
          disabled={busy}
          aria-label={`Re-render with lexicon: job ${name}`}
        >
          Re-render with lexicon…
        </button>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
