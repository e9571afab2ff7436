import { Type, type Static } from 'typebox';

/** A job waiting in the queue is "running" too. */
export const JobStatus = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);
export type JobStatus = Static<typeof JobStatus>;

export const Job = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  engine: Type.String(),
  voice: Type.String(),
  characters: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Optional(Type.String({ format: 'date-time' })),
  audio: Type.Optional(
    Type.Object({
      url: Type.String(),
      content_type: Type.String(),
      duration_s: Type.Number(),
      bytes: Type.Integer(),
    }),
  ),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type Job = Static<typeof Job>;

export const JobParams = Type.Object({ id: Type.String() });
