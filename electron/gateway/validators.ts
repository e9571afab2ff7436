import { AjvCompiler, type RouteDefinition } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Validators by part of the request. Bodies are JSON and are taken as sent (the server's options
 * say no coercion: a number is not text). A query string holds only text, so its schema's numbers
 * are coerced from it there and nowhere else: `?limit=20` reaches the service as the integer 20,
 * and `?limit=x` is refused by the schema like any other bad value.
 */
export function validatorsByPart(): ValidatorFactory {
  const pool = AjvCompiler();
  return (externalSchemas, options) => {
    // verbose: an error carries its schema, so that the answer can name a field's allowed range
    const customOptions = { ...options?.customOptions, verbose: true };
    const asSent = pool(externalSchemas, { ...options, customOptions } as typeof options);
    const coerced = pool(externalSchemas, { ...options, customOptions: { ...customOptions, coerceTypes: true } } as typeof options);
    const context = JSON.stringify([externalSchemas, customOptions]);
    // Fastify passes the route definition, though the declared type says schema (ajv-compiler's types lag).
    return ((route: RouteDefinition) => {
      const part = route.httpPart === 'querystring' ? 'coerced' : 'as sent';
      return compiledOnce(`validator ${part} ${context} ${JSON.stringify(route.schema)}`, () =>
        (part === 'coerced' ? coerced : asSent)(route as never),
      );
    }) as typeof asSent;
  };
}

/** Fastify's own response serializers (fast-json-stringify), compiled once per schema in this process. */
export function keptSerializers(): SerializerFactory {
  const selector = SerializerSelector();
  return (externalSchemas, options) => {
    const build = selector(externalSchemas, options);
    const context = JSON.stringify([externalSchemas, options]);
    return (route) => compiledOnce(`serializer ${context} ${JSON.stringify(route.schema)}`, () => build(route));
  };
}

/**
 * Compiled validators and serializers by what they were compiled from. Compiling the routes'
 * schemas was most of a start's CPU after the engines' (about 0.6 s of 1.5 s): a gateway started
 * again in this process (a restart by the desktop app, the gateways of a test file) takes the
 * functions compiled for the first. A function depends on its schema and options alone, and the
 * schemas are the code's, so the map holds one entry per schema of the contract.
 */
const compiled = new Map<string, unknown>();

function compiledOnce<F>(key: string, compile: () => F): F {
  if (!compiled.has(key)) compiled.set(key, compile());
  return compiled.get(key) as F;
}
