import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ApiModule, type ApiModuleOptions } from './api.module.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/**
 * Creates (does not listen) the API app for any host: main.ts, the embedded mode, the e2e specs.
 * Nest's body parser is off because ApiModule parses JSON itself, with its own limit and errors.
 */
export async function createApiApp(options: ApiModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(options), {
    bodyParser: false,
    logger: false,
  });
  app.disable('x-powered-by');
  // The document is built from the zod schemas, not from decorators: one source for validation and docs.
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  return app;
}
