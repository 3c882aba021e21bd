export * from './audit';
export * from './auth';
export * from './catalog';
export * from './maintenance';
export * from './rollups';
export * from './route-times';
export * from './swaps';
export * from './webhooks';
