import { referralStatus } from '../../affiliates/referrals';
import { referralV1Response } from '../../schemas/responses';
import { referralQuery } from '../../schemas/swap';
import { endpoint } from '../endpoint';

export const referralV1 = endpoint({
  routeClass: 'catalog',
  query: referralQuery,
  response: referralV1Response,
  handle: async ({ query }, { app }) => ({ body: { data: await referralStatus(app, query.code) } }),
});
