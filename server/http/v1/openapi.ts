import { openApiDocumentResponse } from '../../schemas/responses';
import { endpoint } from '../endpoint';

/** The OpenAPI document; imported on first use because the document itself is built from API_ROUTES. */
export const openApiV1 = endpoint({
  routeClass: 'catalog',
  response: openApiDocumentResponse,
  handle: async () => {
    const { buildOpenApiDocument } = await import('../../openapi/document');
    return { body: buildOpenApiDocument() };
  },
});
