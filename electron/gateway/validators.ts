import { AjvCompiler, type RouteDefinition } from '@fastify/ajv-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;

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
    // Fastify passes the route definition, though the declared type says schema (ajv-compiler's types lag).
    return ((route: RouteDefinition) => (route.httpPart === 'querystring' ? coerced : asSent)(route as never)) as typeof asSent;
  };
}
