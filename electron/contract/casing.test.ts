import { describe, expect, it } from 'vitest';
import * as contract from './index';

/**
 * The contract's names are snake_case (docs/architecture.md, "Contract casing"). These camelCase
 * answer fields were published in API v1 and stay until v2; nothing may join them.
 */
const V1_CAMEL_CASE = ['defaultVoice', 'sampleRate', 'voiceCount'];

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Every property name in a JSON schema, however deep (objects, arrays, unions, intersections). */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => propertyNames(s, into));
  else if (schema && typeof schema === 'object') {
    const { properties, ...rest } = schema as { properties?: Record<string, unknown> };
    for (const [name, value] of Object.entries(properties ?? {})) {
      into.add(name);
      propertyNames(value, into);
    }
    Object.values(rest).forEach((value) => propertyNames(value, into));
  }
  return into;
}

const isSchema = (value: unknown) => !!value && typeof value === 'object' && ['type', 'allOf', 'anyOf'].some((key) => key in value);
const schemas = Object.entries(contract).filter(([, value]) => isSchema(value));

describe('contract casing', () => {
  it('finds the schemas of every route group', () => {
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['SynthesizeBody', 'Job', 'JobListQuery', 'EngineDetail', 'Settings', 'WhoAmI', 'ErrorBody']),
    );
  });

  it('names every field in snake_case but the camelCase fields frozen in API v1', () => {
    const names = new Set<string>();
    for (const [, schema] of schemas) propertyNames(schema, names);
    expect([...names].filter((name) => !SNAKE_CASE.test(name)).sort()).toEqual(V1_CAMEL_CASE);
  });
});
