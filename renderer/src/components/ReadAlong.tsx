import { useEffect, useMemo, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { API, ApiError, type JobTimings } from '../api/contract';
import { describeError } from '../lib/format';
import { paragraphsOf, sentenceAt } from '../lib/read-along';
import { useApp } from '../store';
import { SentenceEditor } from './SentenceEditor';

type Loaded = { jobId: string; timings: JobTimings } | { jobId: string; message: string };

/** A finished job's read-along, from GET /jobs/{id}/timings; a note when it has none. */
export function JobReadAlong({ jobId, ws, time }: { jobId: string; ws: WaveSurfer | null; time: number }) {
  const client = useApp((s) => s.client);
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!client) return;
    let stale = false;
    client
      .call(API.getJobTimings, { params: { id: jobId } })
      .then((timings) => !stale && setLoaded({ jobId, timings }))
      .catch((error: unknown) => {
        if (stale) return;
        const message =
          error instanceof ApiError && error.code === 'timings_unavailable'
            ? 'No read-along for this job: it was made before Orator kept sentence timings.'
            : `Read-along unavailable: ${describeError(error)}`;
        setLoaded({ jobId, message });
      });
    return () => {
      stale = true;
    };
  }, [client, jobId]);

  if (!loaded || loaded.jobId !== jobId) return null;
  if ('message' in loaded) return <p className="read-along-note muted small">{loaded.message}</p>;
  return (
    <ReadAlong
      timings={loaded.timings}
      ws={ws}
      time={time}
      tools={(current) => <SentenceEditor jobId={jobId} current={current} sentence={loaded.timings.sentences[current]} />}
    />
  );
}

/**
 * A text sentence by sentence (a job's, or an inline take's): the one being spoken is highlighted
 * and kept in view, and a click on one seeks there and plays. One sentence is in the tab order (the
 * spoken one); arrow keys move between them.
 */
export function ReadAlong({
  timings,
  ws,
  time,
  tools,
}: {
  timings: JobTimings;
  ws: WaveSurfer | null;
  time: number;
  /** Actions on the highlighted sentence, shown under the text (a job's: edit it). */
  tools?: (current: number) => React.ReactNode;
}) {
  const list = useRef<HTMLDivElement>(null);
  const paragraphs = useMemo(() => paragraphsOf(timings.sentences), [timings]);
  const current = sentenceAt(timings.sentences, time);

  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  // Playback time changes ten times a second; the sentences (thousands in a long job) are built
  // again only when the spoken one changes.
  const body = useMemo(() => {
    const focusable = Math.max(0, current);
    return paragraphs.map((paragraph) => (
      <p key={paragraph[0]!.index}>
        {paragraph.map(({ index, sentence }) => (
          <button
            key={index}
            type="button"
            className="sentence"
            data-index={index}
            data-start={sentence.start_s}
            data-end={sentence.end_s}
            aria-current={index === current ? 'true' : undefined}
            tabIndex={index === focusable ? 0 : -1}
          >
            {sentence.text}
          </button>
        ))}
      </p>
    ));
  }, [paragraphs, current]);

  /** The index of the sentence an event came from (handlers sit on the list, not on each sentence). */
  const indexOf = (event: React.SyntheticEvent) => {
    const sentence = (event.target as HTMLElement).closest<HTMLElement>('button.sentence');
    return sentence ? Number(sentence.dataset.index) : null;
  };
  const onClick = (event: React.MouseEvent) => {
    const sentence = timings.sentences[indexOf(event) ?? -1];
    if (!ws || !sentence) return;
    ws.setTime(sentence.start_s);
    void ws.play().catch(() => undefined);
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    const index = indexOf(event);
    if (step === undefined || index === null) return;
    event.preventDefault();
    list.current?.querySelector<HTMLElement>(`[data-index="${index + step}"]`)?.focus();
  };

  return (
    <>
      {/* the sentences are buttons; the group only catches their clicks and keys */}
      <div
        ref={list}
        className="read-along"
        role="group"
        aria-label="Read along: click a sentence to play from it"
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        {body}
      </div>
      {tools?.(current)}
    </>
  );
}
