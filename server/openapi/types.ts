import type { ErrorCode } from '../errors';

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'header';
  description: string;
  required: boolean;
  schema: JsonSchema;
  style?: 'form' | 'simple';
  explode?: boolean;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader | { $ref: string }>;
  content?: {
    'application/json'?: { schema: JsonSchema };
    /** `x-event-data`: the JSON each event's `data:` line carries. */
    'text/event-stream'?: { schema: JsonSchema; 'x-event-data': JsonSchema };
  };
  /** The `error.code` values this status carries (error responses only). */
  'x-error-codes'?: ErrorCode[];
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: {
    required: true;
    content: { 'application/json': { schema: JsonSchema; example?: unknown } };
  };
  responses: Record<string, OpenApiResponse>;
}

export type HttpMethod = 'get' | 'post';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; contact: { name: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  webhooks: Record<string, { post: OpenApiOperation }>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, OpenApiHeader>;
    parameters: Record<string, OpenApiParameter>;
  };
}
