'use strict';
// Tier: all (the integrity matrix: 96 fresh servers, every strategy x every hop)
// Context integrity under concurrency: for every strategy and every hop, 200 requests
// at 200 concurrent, each with its own trace id, and each answer checked against the
// measured table of test/helpers/integrity-table.js (the table's coverage and `none`: the
// quick tier's test/integrity.test.js).
const { describe, test } = require('node:test');
const strategies = require('../../context');
const { startServer, fireConcurrent } = require('../helpers/server');
const {
  TOTAL,
  CONCURRENCY,
  DEPTH,
  COLUMNS,
  EXPECTED,
  ALSCONTEXT_CLS_DEFECT,
  assertOutcome,
} = require('../helpers/integrity-table');

// Cells run two at a time (a server each): the file must stay near 90 s on 2 cores.
const CELL_CONCURRENCY = 2;

describe('every strategy x every hop', { concurrency: CELL_CONCURRENCY }, () => {
  for (const [strategy, row] of Object.entries(EXPECTED)) {
    COLUMNS.forEach((hop, i) => {
      const expected = row[i];
      test(`STRATEGY=${strategy} HOP=${hop}: ${expected}`, { timeout: 600000 }, async (t) => {
        const server = await startServer(
          {
            STRATEGY: strategy,
            HOP: hop,
            DEPTH: String(DEPTH),
            LOG: 'none',
            FRAMEWORK: strategies.info(strategy).frameworks?.[0] ?? 'express',
          },
          { timeoutMs: 300000 },
        );
        t.after(() => server.stop());
        const counts = await fireConcurrent(server.url + '/', { total: TOTAL, concurrency: CONCURRENCY });
        assertOutcome(expected, counts, `${strategy} ${hop} depth ${DEPTH}`);

        if (strategy === ALSCONTEXT_CLS_DEFECT.strategy && ALSCONTEXT_CLS_DEFECT.lostOnHops.includes(hop)) {
          for (const depth of ALSCONTEXT_CLS_DEFECT.keptAtDepths) {
            const shallow = await fireConcurrent(`${server.url}/depth/${depth}`, {
              total: TOTAL,
              concurrency: CONCURRENCY,
            });
            assertOutcome('kept', shallow, `${strategy} ${hop} depth ${depth}`);
          }
        }
      });
    });
  }
});
