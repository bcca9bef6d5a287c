import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ContractJsonSchema } from '../json-schemas.js';

// ajv-formats is CommonJS with a default export: under NodeNext the function sits on `.default` for TypeScript,
// while the runtime may hand over either shape.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/**
 * A strict draft-07 validator factory, as a non-zod consumer would build one. allowUnionTypes: CloudEvent
 * extensions are `"type": ["string", "number", "boolean"]`, plain draft-07.
 */
export function strictAjv(...extraKeywords: string[]): Ajv {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  for (const keyword of extraKeywords) ajv.addKeyword(keyword);
  addFormats(ajv);
  return ajv;
}

/** Validators for the generated schemas, by file name. */
export function validatorsFor(schemas: readonly ContractJsonSchema[]): (fileName: string) => ValidateFunction {
  const ajv = strictAjv();
  const compiled = new Map(schemas.map((s) => [s.fileName, ajv.compile(s.schema)]));
  return (fileName) => {
    const validate = compiled.get(fileName);
    if (!validate) throw new Error(`no generated schema named ${fileName}`);
    return validate;
  };
}
