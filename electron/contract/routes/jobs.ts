import { Type } from 'typebox';
import { FormatQuery } from '../formats';
import {
  EVENT_ID_PATTERN,
  Job,
  JOB_EVENT_TYPES,
  JobList,
  JobListQuery,
  JobParams,
  JobPatch,
  JobPeaks,
  JobPeaksQuery,
  JobTimings,
  SentenceEdit,
  SentenceParams,
} from '../jobs';
import { SubtitleQuery } from '../exports';
import { TTS_ROOT } from '../paths';
import { JobRerenderAccepted, JobRerenderPlan } from '../render-plan';
import { JobAccepted } from '../synthesis';
import { mediaAnswer, pathOf, routeGroup } from './route';
import { audioAnswer } from './synthesis';

const eventStream = mediaAnswer(
  `Server-Sent Events: ${JOB_EVENT_TYPES.join(', ')}; data is the Job, id its revision`,
  ['text/event-stream'],
  false,
);

/** A header, so named by HTTP: outside the contract's snake_case fields. */
const ResumeHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: EVENT_ID_PATTERN,
      description: 'The id of the last event received: every job changed after it is sent first, as it stands now',
    }),
  ),
});

/** Captions as text: WebVTT or SubRip. */
export const subtitlesAnswer = mediaAnswer('text/vtt or application/x-subrip', ['text/vtt', 'application/x-subrip'], false);

const job = `${TTS_ROOT}/jobs/:id`;

export const jobsApi = routeGroup('jobs', {
  listJobs: {
    method: 'GET',
    path: `${TTS_ROOT}/jobs`,
    summary: 'Jobs, newest first, paginated',
    query: JobListQuery,
    responses: { 200: JobList },
  },
  getJob: { method: 'GET', path: job, summary: 'A job and its progress', params: JobParams, responses: { 200: Job }, errors: [404] },
  renameJob: {
    method: 'PATCH',
    path: job,
    summary: 'Rename a job: its title, 1 to 200 characters after trimming, one line',
    params: JobParams,
    body: JobPatch,
    responses: { 200: Job },
    errors: [404],
  },
  editJobSentence: {
    method: 'PUT',
    path: `${job}/sentences/:n`,
    summary: "Give one sentence of a finished WAV job new text: only its chunk is synthesized again and spliced into the job's audio",
    params: SentenceParams,
    body: SentenceEdit,
    responses: { 200: Job },
    errors: [404, 409, 410, 429, 502, 503, 504, 507],
  },
  deleteJob: {
    method: 'DELETE',
    path: job,
    summary: 'Cancel a running job (200, it fails with "cancelled"), or delete a finished one and its audio (204)',
    params: JobParams,
    responses: { 200: Job, 204: Type.Null({ description: 'Deleted' }) },
    errors: [404],
  },
  retryJob: {
    method: 'POST',
    path: `${job}/retry`,
    summary: 'Queue a failed job again, as a new job that replaces it (the failed job is removed)',
    params: JobParams,
    responses: { 202: JobAccepted },
    errors: [404, 429, 507],
  },
  getJobRerenderPlan: {
    method: 'GET',
    path: `${job}/rerender-plan`,
    summary:
      'What a re-render of a finished job with the lexicon as it is now would synthesize: its sentences said differently from its audio',
    params: JobParams,
    responses: { 200: JobRerenderPlan },
    errors: [404, 409, 410, 422],
  },
  rerenderJob: {
    method: 'POST',
    path: `${job}/rerender`,
    summary:
      'Say a finished job again with the lexicon as it is now, as a new job: every sentence said as before is taken from its audio, the others from the render cache or the engine',
    params: JobParams,
    responses: { 202: JobRerenderAccepted },
    errors: [404, 409, 410, 422, 429, 507],
  },
  getJobAudio: {
    method: 'GET',
    path: `${job}/audio`,
    summary: 'The finished audio: its stored file (Range requests work) or, with ?format=, encoded as it is sent',
    params: JobParams,
    query: FormatQuery,
    responses: { 200: audioAnswer('The whole file, in the format asked'), 206: audioAnswer('The requested byte range of a stored file') },
    errors: [404, 409, 410, 416, 429],
  },
  getJobPeaks: {
    method: 'GET',
    path: `${job}/peaks`,
    summary: 'Waveform peaks of the finished audio, at the resolution and over the span asked for',
    params: JobParams,
    query: JobPeaksQuery,
    responses: { 200: JobPeaks, 304: Type.Null({ description: 'Not modified (If-None-Match)' }) },
    errors: [404, 409, 410],
  },
  getJobTimings: {
    method: 'GET',
    path: `${job}/timings`,
    summary: "Each sentence's start and end in the finished audio and its place in the job's text",
    params: JobParams,
    responses: { 200: JobTimings },
    errors: [404, 409, 410],
  },
  getJobSubtitles: {
    method: 'GET',
    path: `${job}/subtitles`,
    summary: 'Captions of the finished audio, one cue per sentence: WebVTT (default) or SubRip',
    params: JobParams,
    query: SubtitleQuery,
    responses: { 200: subtitlesAnswer },
    errors: [404, 409, 410],
  },
  streamJobEvents: {
    method: 'GET',
    path: `${job}/events`,
    summary: 'Live events of one job; ends after done or failed',
    params: JobParams,
    responses: { 200: eventStream },
    errors: [404, 429],
  },
  streamEvents: {
    method: 'GET',
    path: `${TTS_ROOT}/events`,
    summary:
      'Live events of all jobs (with Last-Event-ID, first every job changed after that event) and of voice installs (voice-progress, voice-installed, voice-failed; data is the library entry)',
    headers: ResumeHeaders,
    responses: { 200: eventStream },
    errors: [429],
  },
});

export const JOBS_PATH = jobsApi.listJobs.path;
export const EVENTS_PATH = jobsApi.streamEvents.path;
export const jobPath = (id: string) => pathOf(jobsApi.getJob, { id });
export const jobAudioPath = (id: string) => pathOf(jobsApi.getJobAudio, { id });
export const jobPeaksPath = (id: string) => pathOf(jobsApi.getJobPeaks, { id });
export const jobTimingsPath = (id: string) => pathOf(jobsApi.getJobTimings, { id });
export const jobSentencePath = (id: string, n: number) => pathOf(jobsApi.editJobSentence, { id, n });
export const jobRerenderPath = (id: string) => pathOf(jobsApi.rerenderJob, { id });
export const jobEventsPath = (id: string) => pathOf(jobsApi.streamJobEvents, { id });
