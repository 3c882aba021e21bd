export * from './catalog';
export * from './swaps';
