import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import {
  AUDIO_MEDIA,
  ErrorBody,
  EVENT_ID_PATTERN,
  FormatQuery,
  Job,
  JobAccepted,
  jobAudioFileName,
  JOB_EVENT_TYPES,
  JobList,
  JobListQuery,
  JobParams,
  JobPatch,
  SentenceEdit,
  SentenceParams,
  JobPeaks,
  JobPeaksQuery,
  JobTimings,
  SUBTITLE_MEDIA,
  SubtitleQuery,
  type JobEvent,
  type VoiceEvent,
} from '../../contract';
import type { JobEventFeed } from '../../services/job-events';
import type { JobService } from '../../services/jobs';
import { presentedKey } from '../plugins/auth';
import type { GatewaySlots } from '../slots';
import { streamEvents, type EventFeed, type SseEvent } from '../sse';
import { holdForAnswer, holding } from './hold';
import { audioResponse, contentDisposition, sendJobAccepted } from './replies';

const eventStream = {
  description: `Server-Sent Events: ${JOB_EVENT_TYPES.join(', ')}; data is the Job, id its revision`,
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/** A header, so named by HTTP: outside the contract's snake_case fields. */
const ResumeHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: EVENT_ID_PATTERN,
      description: 'The id of the last event received: every job changed after it is sent first, as it stands now',
    }),
  ),
});

export interface JobRouteOptions {
  jobs: JobService;
  hasKey: (request: FastifyRequest) => boolean;
  /** Voice installs, carried by the stream of all events beside the jobs'. */
  voiceEvents?: (listener: (event: VoiceEvent) => void) => () => void;
  slots: GatewaySlots;
}

/** A job feed as stream events, each with the job's revision as its id, ending where the feed says. */
function jobEvents(feed: JobEventFeed): EventFeed {
  const toSse = (event: JobEvent): SseEvent => ({ type: event.type, data: event.job, id: event.job.revision, last: feed.isLast(event) });
  return { backlog: pages(feed.backlog, toSse), subscribe: (listener) => feed.subscribe((event) => listener(toSse(event))) };
}

/** Each page of `backlog` mapped, read only when asked for (as the feed reads it). */
function* pages<T, U>(backlog: Iterable<T[]>, map: (item: T) => U): Generator<U[]> {
  for (const page of backlog) yield page.map(map);
}

export const jobRoutes: FastifyPluginAsyncTypebox<JobRouteOptions> = async (app, { jobs, hasKey, voiceEvents, slots }) => {
  /** A stream holds one of its key's slots until it ends (the auth hook has checked the key). */
  const openStream = (request: FastifyRequest, reply: FastifyReply, feed: EventFeed) => {
    const release = slots.eventStreams.take(presentedKey(request)!);
    streamEvents(request, reply, { ...feed, authorized: () => hasKey(request), onEnd: release });
  };
  /** Every job's events and, with a voice library, its installs'. */
  const allEvents = (after?: number): EventFeed => {
    const feed = jobEvents(jobs.events(after));
    if (!voiceEvents) return feed;
    return {
      backlog: feed.backlog,
      subscribe: (listener) => {
        const stopJobs = feed.subscribe(listener);
        const stopVoices = voiceEvents((event) => listener({ type: event.type, data: event.voice }));
        return () => {
          stopJobs();
          stopVoices();
        };
      },
    };
  };

  app.get('/jobs', {
    schema: {
      operationId: 'listJobs',
      tags: ['jobs'],
      summary: 'Jobs, newest first, paginated',
      querystring: JobListQuery,
      response: { 200: JobList, 400: ErrorBody },
    },
    handler: async (request) => jobs.list(request.query),
  });

  app.get('/jobs/:id', {
    schema: {
      operationId: 'getJob',
      tags: ['jobs'],
      summary: 'A job and its progress',
      params: JobParams,
      response: { 200: Job, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      const job = await jobs.get(request.params.id);
      if (job.status === 'running') reply.header('retry-after', '1');
      return job;
    },
  });

  app.patch('/jobs/:id', {
    schema: {
      operationId: 'renameJob',
      tags: ['jobs'],
      summary: 'Rename a job: its title, 1 to 200 characters after trimming, one line',
      params: JobParams,
      body: JobPatch,
      response: { 200: Job, 400: ErrorBody, 404: ErrorBody },
    },
    handler: async (request) => jobs.rename(request.params.id, request.body.title),
  });

  app.put('/jobs/:id/sentences/:n', {
    schema: {
      operationId: 'editJobSentence',
      tags: ['jobs'],
      summary: "Give one sentence of a finished WAV job new text: only its chunk is synthesized again and spliced into the job's audio",
      params: SentenceParams,
      body: SentenceEdit,
      response: {
        200: Job,
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
        413: ErrorBody,
        429: ErrorBody,
        502: ErrorBody,
        503: ErrorBody,
        504: ErrorBody,
        507: ErrorBody,
      },
    },
    handler: async (request) =>
      holding(slots.sentenceEdits, request, () => jobs.editSentence(request.params.id, request.params.n, request.body.text)),
  });

  app.delete('/jobs/:id', {
    schema: {
      operationId: 'deleteJob',
      tags: ['jobs'],
      summary: 'Cancel a running job (200, it fails with "cancelled"), or delete a finished one and its audio (204)',
      params: JobParams,
      response: { 200: Job, 204: { description: 'Deleted', type: 'null' }, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      const job = await jobs.cancelOrDelete(request.params.id);
      return job ? job : reply.code(204).send(null);
    },
  });

  app.post('/jobs/:id/retry', {
    schema: {
      operationId: 'retryJob',
      tags: ['jobs'],
      summary: 'Queue a failed job again, as a new job that replaces it (the failed job is removed)',
      params: JobParams,
      response: { 202: JobAccepted, 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 507: ErrorBody },
    },
    handler: async (request, reply) => sendJobAccepted(reply, (await jobs.retry(request.params.id)).job_id),
  });

  app.get('/jobs/:id/audio', {
    schema: {
      operationId: 'getJobAudio',
      tags: ['jobs'],
      summary: 'The finished audio: its stored file (Range requests work) or, with ?format=, encoded as it is sent',
      params: JobParams,
      querystring: FormatQuery,
      response: {
        200: audioResponse('The whole file, in the format asked'),
        206: audioResponse('The requested byte range of a stored file'),
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
        416: ErrorBody,
        429: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const audio = await jobs.audio(id, request.query);
      reply
        .type(AUDIO_MEDIA[audio.format].contentType)
        .header('content-disposition', contentDisposition('attachment', jobAudioFileName(id, audio.format)));
      if (audio.kind === 'encoded') {
        // an encoder (AAC and FLAC: a thread) for as long as the client takes to read: one of the key's slots
        holdForAnswer(slots.encoders, request, reply);
        // encoded as it goes: its length and bytes are not known ahead, so no ranges
        return reply.header('accept-ranges', 'none').send(Readable.from(audio.body));
      }
      request.onMissingFile = () => jobs.audioMissing(id, audio.format);
      // the format's own type, not one guessed from the extension (.pcm, .flac)
      return reply.sendFile(path.basename(audio.file), path.dirname(audio.file), {
        acceptRanges: true,
        cacheControl: false,
        contentType: false,
        etag: true,
        lastModified: true,
      });
    },
  });

  app.get('/jobs/:id/peaks', {
    schema: {
      operationId: 'getJobPeaks',
      tags: ['jobs'],
      summary: 'Waveform peaks of the finished audio, at the resolution and over the span asked for',
      params: JobParams,
      querystring: JobPeaksQuery,
      response: {
        200: JobPeaks,
        304: Type.Null({ description: 'Not modified (If-None-Match)' }),
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
      },
    },
    // read from the file per request, only the level and span asked for; the tag spares a client that has them
    handler: async (request, reply) => {
      const { peaks, tag } = await jobs.peaks(request.params.id, request.query);
      const etag = `"${tag}-${Buffer.from(JSON.stringify(request.query)).toString('base64url')}"`;
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return peaks;
    },
  });

  app.get('/jobs/:id/timings', {
    schema: {
      operationId: 'getJobTimings',
      tags: ['jobs'],
      summary: "Each sentence's start and end in the finished audio and its place in the job's text",
      params: JobParams,
      response: { 200: JobTimings, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody },
    },
    handler: async (request) => jobs.timings(request.params.id),
  });

  app.get('/jobs/:id/subtitles', {
    schema: {
      operationId: 'getJobSubtitles',
      tags: ['jobs'],
      summary: 'Captions of the finished audio, one cue per sentence: WebVTT (default) or SubRip',
      params: JobParams,
      querystring: SubtitleQuery,
      response: {
        200: {
          description: 'text/vtt or application/x-subrip',
          content: { 'text/vtt': { schema: { type: 'string' } }, 'application/x-subrip': { schema: { type: 'string' } } },
        },
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const format = request.query.format ?? 'vtt';
      const text = await jobs.subtitles(request.params.id, format);
      return reply
        .type(SUBTITLE_MEDIA[format])
        .header('content-disposition', contentDisposition('inline', `orator-job-${request.params.id.slice(0, 8)}.${format}`))
        .send(text);
    },
  });

  app.get('/jobs/:id/events', {
    schema: {
      operationId: 'streamJobEvents',
      tags: ['jobs'],
      summary: 'Live events of one job; ends after done or failed',
      params: JobParams,
      response: { 200: eventStream, 404: ErrorBody, 429: ErrorBody },
    },
    handler: async (request, reply) => openStream(request, reply, jobEvents(jobs.eventsOf(request.params.id))),
  });

  app.get('/events', {
    schema: {
      operationId: 'streamEvents',
      tags: ['jobs'],
      summary:
        'Live events of all jobs (with Last-Event-ID, first every job changed after that event) and of voice installs (voice-progress, voice-installed, voice-failed; data is the library entry)',
      headers: ResumeHeaders,
      response: { 200: eventStream, 400: ErrorBody, 429: ErrorBody },
    },
    handler: async (request, reply) => {
      const lastId = request.headers['last-event-id'];
      return openStream(request, reply, allEvents(lastId === undefined ? undefined : Number(lastId)));
    },
  });
};
