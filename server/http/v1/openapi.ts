import { type ApiRouteTable, buildOpenApiDocument } from '../../openapi/document';
import { openApiDocumentResponse } from '../../schemas/responses';
import { endpoint } from '../endpoint';

/** The OpenAPI document of the route table it is served from, which is handed in because it lists this endpoint too. */
export const openApiV1 = (routes: () => ApiRouteTable) =>
  endpoint({
    routeClass: 'catalog',
    response: openApiDocumentResponse,
    handle: async () => ({ body: buildOpenApiDocument(routes()) }),
  });
