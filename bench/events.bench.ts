// POST /v1/events over 100,000 people: half returning leads (an existing email), half new ones,
// through the full path (dedup, event record, routing, notification, outbox); then
// GET /v1/events?personId= for people who have events. Ratios are to GET /livez on the same server.
import { baselineRow, type BenchHarness, type BenchRow } from './lib.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const server = await h.startServer({}, { people: PEOPLE });
  try {
    const { url } = server;
    const headers = {
      authorization: server.authHeader,
      'x-system': server.system.name,
      'x-system-key': server.system.key,
    };
    const hello = { name: 'events baseline: GET /livez', url, path: '/livez' };
    let n = 0;
    const leadBody = () => {
      n += 1;
      const returning = n % 2 === 0;
      const address = returning
        ? `person${Math.floor(Math.random() * PEOPLE)}@bench.test`
        : `lead${process.pid}-${n}@bench.test`;
      return JSON.stringify({
        type: returning ? 'Viewed Property' : 'Registration',
        source: 'www.bench-homes.test',
        message: 'I would like to see it',
        property: { street: `${n} Main St`, city: 'Springfield', code: '12345', price: 450000 },
        person: {
          firstName: 'Bench',
          lastName: `Lead ${n}`,
          emails: [{ value: address }],
          phones: [{ value: `(777) ${String(n).padStart(7, '0')}` }],
        },
      });
    };
    const posted = await h.measureAgainst(hello, {
      name: 'POST /v1/events (50% new, 50% returning; 100k people)',
      url,
      path: '/v1/events',
      method: 'POST',
      headers,
      vary: () => ({ body: leadBody() }),
    });
    const post = posted.row;

    const withEvents = (
      await server.ctx.db
        .selectFrom('lead_events')
        .select('person_id')
        .distinct()
        .where('account_id', '=', server.accountId)
        .limit(20_000)
        .execute()
    ).map((r) => r.person_id);
    const pick = () => withEvents[Math.floor(Math.random() * withEvents.length)];
    const listed = await h.measureAgainst(hello, {
      name: 'GET /v1/events?personId=',
      url,
      path: `/v1/events?personId=${withEvents[0]}`,
      headers,
      vary: () => ({ path: `/v1/events?personId=${pick()}` }),
    });
    const get = listed.row;

    const baseline = baselineRow(hello.name, [...posted.baselines, ...listed.baselines]);
    const rows = [baseline, post, get];
    post.note = [post.note, `target ≥20% of baseline, p99 < 50 ms`].filter(Boolean).join('; ');
    return rows;
  } finally {
    await server.close();
  }
}
