import { errorCodes } from '@dsh/card-models/contract';
import { ToolFailure } from './tool-failure.js';
import type { ParseResult, Tool } from './tool.js';

/** The subset of JSON schema that tool parameters use; `validate` checks exactly this. */
export type JsonSchema =
  | { type: 'string'; description?: string; enum?: readonly string[]; minLength?: number }
  | { type: 'integer' | 'number'; description?: string; minimum?: number; maximum?: number }
  | { type: 'boolean'; description?: string }
  | { type: 'array'; description?: string; items: JsonSchema; minItems?: number }
  | ObjectSchema;

/** An object schema; unknown properties are rejected so a misspelt option is never ignored. */
export interface ObjectSchema {
  type: 'object';
  description?: string;
  properties: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: false;
}

/**
 * Builds a tool's `parseArgs`: JSON text -> a value that fits `schema`, then the
 * tool's own `refine` check. Empty text counts as `{}`. Never throws.
 */
export function schemaArgs<A>(
  schema: ObjectSchema,
  refine?: (value: A) => string | undefined,
): (raw: string) => ParseResult<A> {
  return (raw) => {
    let value: unknown;
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
    }
    const problem = validate(schema, value, 'arguments');
    if (problem !== undefined) return { ok: false, error: problem };
    const refined = refine?.(value as A);
    if (refined !== undefined) return { ok: false, error: refined };
    return { ok: true, value: value as A };
  };
}

/**
 * A tool's `parameters` and `parseArgs` from one schema (see `schemaArgs`), so the
 * schema the model is sent is exactly the one its arguments are checked against.
 */
export function toolSchema<A>(
  schema: ObjectSchema,
  refine?: (value: A) => string | undefined,
): Pick<Tool<A>, 'parameters' | 'parseArgs'> {
  return {
    parameters: schema as unknown as Record<string, unknown>,
    parseArgs: schemaArgs<A>(schema, refine),
  };
}

/** The failure a tool throws for arguments that fit the schema but not the situation. */
export function invalidArguments(message: string): ToolFailure {
  return new ToolFailure(errorCodes.invalidArguments, message);
}

function validate(schema: JsonSchema, value: unknown, at: string): string | undefined {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return `${at} must be a string, got ${describe(value)}`;
      if (schema.enum && !schema.enum.includes(value))
        return `${at} must be one of ${schema.enum.map((e) => `"${e}"`).join(', ')}, got "${value}"`;
      if (schema.minLength !== undefined && value.length < schema.minLength)
        return `${at} must not be empty`;
      return undefined;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return `${at} must be a number, got ${describe(value)}`;
      if (schema.type === 'integer' && !Number.isInteger(value))
        return `${at} must be an integer, got ${value}`;
      if (schema.minimum !== undefined && value < schema.minimum)
        return `${at} must be at least ${schema.minimum}, got ${value}`;
      if (schema.maximum !== undefined && value > schema.maximum)
        return `${at} must be at most ${schema.maximum}, got ${value}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : `${at} must be a boolean, got ${describe(value)}`;
    case 'array': {
      if (!Array.isArray(value)) return `${at} must be an array, got ${describe(value)}`;
      if (schema.minItems !== undefined && value.length < schema.minItems)
        return `${at} must have at least ${schema.minItems} item(s)`;
      for (let i = 0; i < value.length; i++) {
        const problem = validate(schema.items, value[i], `${at}[${i}]`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case 'object':
      return validateObject(schema, value, at);
  }
}

function validateObject(schema: ObjectSchema, value: unknown, at: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${at} must be an object, got ${describe(value)}`;
  const record = value as Record<string, unknown>;
  for (const key of schema.required ?? []) {
    if (record[key] === undefined) return `${at}.${key} is required`;
  }
  for (const [key, field] of Object.entries(record)) {
    const property = schema.properties[key];
    if (property === undefined) {
      const known = Object.keys(schema.properties).join(', ');
      return `${at}.${key} is not a known property (expected: ${known})`;
    }
    if (field === null && !schema.required?.includes(key)) {
      delete record[key];
      continue;
    }
    const problem = validate(property, field, `${at}.${key}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
