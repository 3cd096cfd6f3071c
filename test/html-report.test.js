'use strict';
// Tier: quick (the HTML page's cell markup and sort keys, the opening picture's
// axes; the page in headless Chromium is in test/all/html-report.test.js)
// The HTML report's cell markup and sort keys (report/html.js) and the opening picture's
// axes and width (report/charts.js costPicture). The page itself in a real headless
// browser (the picture and the headline's top rows on a 1280×800 screen):
// test/all/html-report.test.js.
const test = require('node:test');
const assert = require('node:assert');
const vega = require('vega');
const { inline, sortKey } = require('../report/html');
const { costPicture, pictureAxis, PICTURE } = require('../report/charts');

test('inline markup of table cells becomes HTML; sort keys are the first figure of a cell', () => {
  assert.strictEqual(
    inline('`als` **1.3%** [page](io.md) <b>'),
    '<code>als</code> <strong>1.3%</strong> <a href="io.md">page</a> &lt;b&gt;',
  );
  assert.strictEqual(inline('[96.1% [93.7%–98.5%]](default.md)'), '<a href="default.md">96.1% [93.7%–98.5%]</a>');
  assert.strictEqual(sortKey('96.1% [93.7%–98.5%]'), 96.1);
  assert.strictEqual(sortKey('−0.25 ms'), -0.25);
  assert.strictEqual(sortKey('12,431 [11,741–13,163]'), 12431);
  assert.strictEqual(sortKey('baseline'), null);
});

test(
  "the opening picture: each panel's axis is set by its points, " +
    'a wider interval is clipped and marked; it fits PICTURE.width',
  async () => {
    // 100% and the estimates, a tenth of their span (at least 5 pp) either side, out to 5 pp, never below 0.
    assert.deepStrictEqual(pictureAxis([97.9, 99.1]), [90, 105]);
    assert.deepStrictEqual(pictureAxis([12.9, 40, 101]), [0, 110]);
    assert.deepStrictEqual(pictureAxis([113.9]), [95, 120]);
    const strategies = ['param', 'als', 'otel', 'cls-hooked', 'express-http-context', 'sentry'];
    // Six panels, as many as the headline has ever had; one interval spans 0–1,200% (an F1 capacity).
    const panels = [
      'CPU, depth 8',
      'CPU, depth 256',
      'Real I/O (pg), CPU',
      'F1 capacity, depth 8',
      'F1 capacity, depth 256',
      '10 live stores',
    ];
    const points = panels.flatMap((panel, j) =>
      strategies.map((strategy, i) => ({
        strategy,
        panel,
        estimate: 60 + 7 * i + j,
        lo: 57 + 7 * i + j,
        hi: 63 + 7 * i + j,
      })),
    );
    const wide = points.find((p) => p.panel === panels[3] && p.strategy === 'als');
    Object.assign(wide, { lo: 0, hi: 1200 });
    const picture = costPicture({ points, panels, strategies, baseline: 'none' });
    assert.deepStrictEqual(
      picture.axes[panels[3]],
      pictureAxis(points.filter((p) => p.panel === panels[3]).map((p) => p.estimate)),
    );
    assert.ok(
      picture.axes[panels[3]][1] <= 120,
      `the 1,200% interval does not stretch its panel: ${picture.axes[panels[3]]}`,
    );
    const values = picture.spec.data.find((d) => Array.isArray(d.values)).values;
    const drawn = values.find((v) => v.strategy === 'als' && v.panel === panels[3]);
    assert.deepStrictEqual(
      [drawn.shownLo, drawn.shownHi, drawn.clipLo, drawn.clipHi],
      [...picture.axes[panels[3]], true, true],
    );
    assert.strictEqual(drawn.hi, 1200, 'the tooltip keeps the true interval');
    assert.strictEqual(values.filter((v) => v.clipLo || v.clipHi).length, 1, 'the narrow intervals are whole');
    const svg = await picture.svg();
    assert.match(svg, /runs past its panel/, 'the clipped interval is explained');
    // The six panels in one row at most PICTURE.width px wide, none narrower than PICTURE.min.
    const width = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)[1]);
    assert.ok(width <= PICTURE.width, `${width} px`);
    const view = new vega.View(vega.parse(picture.spec), { renderer: 'none' }).run();
    const panelWidths = view
      .scenegraph()
      .root.items[0].items.filter((m) => m.role === 'scope')
      .flatMap((m) => m.items.map((g) => g.width));
    view.finalize();
    assert.strictEqual(panelWidths.length, panels.length);
    for (const w of panelWidths) assert.ok(w >= PICTURE.min, `a panel ${w} px wide`);
    assert.ok(svg.match(/<text[^>]*>CPU, depth 8<\/text>/), 'panel titles are drawn');
  },
);
