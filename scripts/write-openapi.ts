/** Writes the OpenAPI document to openapi.json (gitignored) for Spectral and openapi-typescript. */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../server/openapi/document';

const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
