/** Writes the OpenAPI document to openapi.json (gitignored) for Spectral and openapi-typescript. */
import { writeFileSync } from 'node:fs';
import { API_ROUTES } from '../server/http/routes';
import { buildOpenApiDocument } from '../server/openapi/document';

const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(API_ROUTES), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
