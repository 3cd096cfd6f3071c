'use strict';
// Tier: all (needs Chromium: results/index.html opened in a real headless browser)
// results/index.html in a real headless browser (the system's Chromium, driven by
// playwright-core): the summary table and every chart render, hovering a point shows its
// interval and its blocks, a column header sorts, nothing is fetched from the network and
// the page logs no errors; on a 1280×800 screen the picture and the headline's top rows
// show without scrolling either way. Screenshots are left in the test's temp dir. The
// page's markup helpers and the picture's axis rule: test/html-report.test.js.
/* global document -- the callbacks of waitForFunction run in the page */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { buildReport } = require('../../report');
const { tempDir } = require('../helpers/tmp');

// Real runs, frozen for the tests (test/fixtures/results/README.md).
const RESULTS = path.join(__dirname, '..', 'fixtures', 'results');
const systemTools = require('../../lib/system-tools');

const CHROMIUM = systemTools.find('chromium')?.path;
// As the machine's own probe starts it: without the background-networking flags Chromium
// keeps trying to reach Google's hosts from a machine with a closed network.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

test(
  'results/index.html renders in headless Chromium: summary, every chart, hover, sort, ' +
    'no errors, no network; at 1280×800 the picture and the top rows show unscrolled',
  async (t) => {
    if (!CHROMIUM) {
      t.skip(`${systemTools.hint('chromium')} (.ci/run installs it): the HTML report is not opened in a browser here`);
      return;
    }
    const dir = tempDir('ctxbench-html-');
    const out = path.join(dir, 'results.md');
    // The studies the summary reads, and charts of three kinds (depth, load, throughput).
    const files = [
      'default.json',
      'integrity.json',
      'io.json',
      'latency.json',
      'stores.json',
      'instructions.json',
      'app.json',
    ].map((n) => path.join(RESULTS, n));
    const result = await buildReport({ resultsDir: RESULTS, out, files });
    assert.strictEqual(result.html, path.join(dir, 'results', 'index.html'));
    const html = fs.readFileSync(result.html, 'utf8');
    // Self-contained: no script, style or image from anywhere else.
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+stylesheet|<img[^>]+src="https?:/);

    const { chromium } = require('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    t.after(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems = [];
    const fetched = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => !r.url().startsWith('file:') && fetched.push(r.url()));
    await page.goto(`file://${result.html}`);

    const summaryRows = await page.$$eval('#summary tbody tr', (rows) => rows.map((r) => r.children[0].textContent));
    assert.deepStrictEqual(
      summaryRows,
      result.summary.rows.map((r) => r.strategy + (r.label ? `: ${r.label}` : '') + (r.control ? ' (control)' : '')),
    );
    const studies = await page.$$eval('section.study', (s) => s.length);
    assert.strictEqual(studies, files.length, 'a section per results file');

    const charts = await page.$$('.chart');
    assert.strictEqual(charts.length, result.charts.length, 'every chart of the markdown report is in the page');
    await page.waitForFunction(
      () => [...document.querySelectorAll('.chart')].every((el) => el.dataset.rendered === 'true'),
      null,
      { timeout: 60_000 },
    );
    for (const el of charts)
      assert.ok(await el.$('svg g.mark-symbol path, svg g.mark-line path'), 'the chart drew marks');

    // The page opens with the picture (each strategy's cost as a point with its interval),
    // above the summary table; hovering one of its points names the column and the interval.
    assert.strictEqual(await charts[0].getAttribute('id'), 'picture');
    assert.ok(
      await page.$eval('#summary', (s) => s.querySelector('.chart, table') === s.querySelector('#picture')),
      'the picture comes before the table',
    );
    const hover = async (chart, text) => {
      const point = await chart.$('g.mark-symbol path');
      await point.scrollIntoViewIfNeeded();
      const box = await point.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(([el, want]) => (el.getAttribute('title') || '').includes(want), [chart, text], {
        timeout: 5000,
      });
      return chart.getAttribute('title');
    };
    assert.match(await hover(charts[0], 'column'), /^strategy: .+\ncolumn: .+\n% of none: [\d.]+\n95% CI low: /);
    // A study's chart: vega sets the container's title to the point's tooltip.
    assert.match(await hover(charts[1], 'blocks'), /95% CI low: [\d,.]+\n95% CI high: [\d,.]+\nblocks: \d+/);

    // Sort the summary by its depth-8 cost: ascending, then descending.
    const header = page.locator('#summary th').nth(2);
    assert.match(await header.textContent(), /^Depth 8/);
    const column = async () =>
      page.$$eval('#summary tbody tr', (rows) =>
        rows
          .map((r) => r.children[2].dataset.sort)
          .filter((v) => v !== undefined && v !== '')
          .map(Number),
      );
    await header.click();
    const up = await column();
    assert.deepStrictEqual(
      up,
      [...up].sort((a, b) => a - b),
    );
    await header.click();
    const down = await column();
    assert.deepStrictEqual(
      down,
      [...up].sort((a, b) => b - a),
    );

    const shot = path.join(dir, 'index.png');
    await page.screenshot({ path: shot, fullPage: false });
    assert.ok(fs.statSync(shot).size > 10_000, `screenshot at ${shot}`);

    // A laptop's screen, freshly opened: nothing overflows sideways, and the picture (drawn
    // at its own size, not shrunk to fit) and the headline's first three rows lie on it.
    const laptop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    laptop.on('pageerror', (e) => problems.push(`page error at 1280×800: ${e.message}`));
    await laptop.goto(`file://${result.html}`);
    await laptop.waitForFunction(() => document.querySelector('#picture')?.dataset.rendered === 'true', null, {
      timeout: 60_000,
    });
    const fit = await laptop.evaluate(() => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return {
          top: Math.round(r.top),
          bottom: Math.round(r.bottom),
          left: Math.round(r.left),
          right: Math.round(r.right),
          width: r.width,
        };
      };
      const svg = document.querySelector('#picture svg');
      return {
        scrollWidth: document.documentElement.scrollWidth,
        picture: box(svg),
        drawnAt: Number(svg.getAttribute('width')),
        rows: [...document.querySelectorAll('#summary tbody tr')].slice(0, 3).map(box),
      };
    });
    const small = path.join(dir, 'index-1280x800.png');
    await laptop.screenshot({ path: small, fullPage: false });
    const seen = `at 1280×800 (${small}): ${JSON.stringify(fit)}`;
    assert.ok(fit.scrollWidth <= 1280, `the page scrolls sideways ${seen}`);
    assert.strictEqual(fit.rows.length, 3, seen);
    for (const b of [fit.picture, ...fit.rows])
      assert.ok(b.top >= 0 && b.left >= 0 && b.bottom <= 800 && b.right <= 1280, `off the screen ${seen}`);
    assert.ok(fit.picture.width >= fit.drawnAt - 0.5, `the picture is shrunk to fit ${seen}`);
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(fetched, []);
    t.diagnostic(`screenshots: ${shot}, ${small}`);
  },
);
