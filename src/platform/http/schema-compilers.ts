import {
  AjvCompiler,
  type BuildCompilerFromPool,
  type RouteDefinition,
} from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

const buildValidator = AjvCompiler();
const buildSerializer = SerializerSelector();

/** Compiled functions by what they were compiled from (the schema and everything it refers to). */
const compiled = new Map<string, unknown>();

function once<T>(key: string, compile: () => T): T {
  if (!compiled.has(key)) compiled.set(key, compile());
  return compiled.get(key) as T;
}

/**
 * Fastify's own compilers (Ajv for request validation, fast-json-stringify for answers), with
 * what they compile kept for the life of the process. Compiling the API's ~600 schemas is most
 * of building the app (about 2 s of CPU); without this every app instance in one process (the
 * test suite starts over a hundred, the benches several) paid it again. The functions are pure:
 * one compiled from the same schema, shared schemas and options is the same function.
 *
 * Fastify treats compilers given here as custom ones, which only changes one thing: it hands
 * header schemas over without lower-casing their property names. Hearth's routes have none.
 */
export const schemaCompilers: {
  buildValidator: BuildCompilerFromPool;
  buildSerializer: SerializerFactory;
} = {
  buildValidator(externalSchemas, options) {
    const compile = buildValidator(externalSchemas, options);
    const context = JSON.stringify([externalSchemas, options?.customOptions]);
    return (route) => {
      // Fastify passes the route's definition (its types say a bare schema).
      const { schema, httpPart } = route as unknown as RouteDefinition;
      return once(`validator ${context} ${JSON.stringify([schema, httpPart])}`, () =>
        compile(route),
      );
    };
  },
  buildSerializer(externalSchemas, options) {
    const compile = buildSerializer(externalSchemas, options);
    const context = JSON.stringify([externalSchemas, options]);
    return (route) =>
      once(`serializer ${context} ${JSON.stringify(route.schema)}`, () => compile(route));
  },
};
