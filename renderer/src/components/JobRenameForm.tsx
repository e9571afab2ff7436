import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { checkTitle, TITLE_MAX_CHARS, type Job } from '../api/contract';
import { useApp } from '../store';

/**
 * The title of a job as an input: Enter saves it on the gateway, Escape leaves it as it was. The
 * contract's own check runs first, so the gateway's rules show before anything is sent.
 */
export function JobRenameForm({ job, onClose }: { job: Job; onClose(): void }) {
  const renameJob = useApp((s) => s.renameJob);
  const [value, setValue] = useState(job.title);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const problemId = useId();

  useEffect(() => input.current?.select(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTitle(value);
    if ('problem' in checked) return setProblem(checked.problem);
    if (checked.title === job.title) return onClose();
    setSaving(true);
    const saved = await renameJob(job.job_id, checked.title);
    setSaving(false);
    if (saved) onClose();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  return (
    <form className="job-rename" onSubmit={(e) => void submit(e)} onKeyDown={onKeyDown}>
      <input
        ref={input}
        type="text"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setProblem(null);
        }}
        aria-label="Job title"
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        title={`Up to ${TITLE_MAX_CHARS} characters`}
      />
      <button type="submit" className="small primary" disabled={saving}>
        Save
      </button>
      <button type="button" className="small ghost" onClick={onClose}>
        Cancel
      </button>
      {problem && (
        <p id={problemId} className="error small" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
