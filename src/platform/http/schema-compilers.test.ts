import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaCompilers } from './schema-compilers.js';

const ajvOptions = { customOptions: { coerceTypes: 'array' as const, useDefaults: true } };
const route = (schema: object) =>
  ({ schema, method: 'GET', url: '/x', httpPart: 'querystring' }) as never;

describe('schema compilers kept for the process', () => {
  it('gives a second app the validator compiled for the first, from an equal schema', () => {
    const first = schemaCompilers.buildValidator({}, ajvOptions);
    const second = schemaCompilers.buildValidator({}, ajvOptions);
    const schema = () => ({
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, default: 10 } },
    });
    const validate = first(route(schema())) as unknown as (data: unknown) => boolean;
    assert.equal(second(route(schema())), validate);
    const query: Record<string, unknown> = { limit: '5' };
    assert.equal(validate(query), true);
    assert.deepEqual(query, { limit: 5 });
    const empty: Record<string, unknown> = {};
    assert.equal(validate(empty), true);
    assert.deepEqual(empty, { limit: 10 });
    assert.equal(validate({ limit: '0' }), false);
  });

  it('compiles anew when the schema, the shared schemas or the options differ', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const validate = schemaCompilers.buildValidator({}, ajvOptions)(route(schema));
    const other = { type: 'object', properties: { a: { type: 'integer' } } };
    assert.notEqual(schemaCompilers.buildValidator({}, ajvOptions)(route(other)), validate);
    const shared = { Thing: { $id: 'Thing', type: 'string' } };
    assert.notEqual(schemaCompilers.buildValidator(shared, ajvOptions)(route(schema)), validate);
    const strict = { customOptions: { coerceTypes: false as const } };
    assert.notEqual(schemaCompilers.buildValidator({}, strict)(route(schema)), validate);
  });

  it('shares response serializers the same way, each writing its own schema', () => {
    const answer = { type: 'object', properties: { id: { type: 'integer' } } };
    const serialize = schemaCompilers.buildSerializer({}, {})({ schema: answer } as never);
    assert.equal(
      schemaCompilers.buildSerializer({}, {})({ schema: { ...answer } } as never),
      serialize,
    );
    assert.equal(serialize({ id: 7, secret: 'x' }), '{"id":7}');
    const named = { type: 'object', properties: { name: { type: 'string' } } };
    const other = schemaCompilers.buildSerializer({}, {})({ schema: named } as never);
    assert.equal(other({ id: 7, name: 'Ann' }), '{"name":"Ann"}');
  });
});
