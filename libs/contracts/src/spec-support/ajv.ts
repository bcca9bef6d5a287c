import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ContractJsonSchema } from '../json-schemas.js';

// ajv-formats is CommonJS with a default export: under NodeNext the function sits on `.default` for TypeScript,
// while the runtime may hand over either shape.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/** Strict draft-07 validators for the generated schemas, as a non-zod consumer would build them. */
export function validatorsFor(schemas: readonly ContractJsonSchema[]): (fileName: string) => ValidateFunction {
  // allowUnionTypes: CloudEvent extensions are `"type": ["string", "number", "boolean"]`, plain draft-07.
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const compiled = new Map(schemas.map((s) => [s.fileName, ajv.compile(s.schema)]));
  return (fileName) => {
    const validate = compiled.get(fileName);
    if (!validate) throw new Error(`no generated schema named ${fileName}`);
    return validate;
  };
}
