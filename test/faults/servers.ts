import { privateServers } from '../support/private-servers';

/** The fault suite's own Postgres and Redis (see test/support/private-servers.ts). */
const servers = privateServers({ root: '/tmp/switchyard-faults', pgPort: 5491, redisPort: 6391 });

export const faultPostgresUrl = servers.postgresUrl;
export const faultRedisUrl = servers.redisUrl;
export const initPostgres = servers.initPostgres;
export const startPostgres = servers.startPostgres;
export const stopPostgres = servers.stopPostgres;
export const startRedis = servers.startRedis;
export const stopRedis = servers.stopRedis;
