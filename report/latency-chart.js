'use strict';
// The rate-mode chart: p99 latency against the offered load, one line per series, with
// 95% intervals. A sibling of report/charts.js (whose x axis is the call depth).
const vega = require('vega');
const vl = require('vega-lite');

// loadChart({ title, points: [{ series, x, y, lo?, hi? }], xTitle, yTitle }) -> SVG
async function loadChart({ title, points, xTitle, yTitle }) {
  const x = { field: 'x', type: 'quantitative', title: xTitle, scale: { zero: false, nice: false, padding: 12 } };
  const color = { field: 'series', type: 'nominal', title: 'strategy', sort: [...new Set(points.map((p) => p.series))] };
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 520,
    height: 280,
    background: 'white',
    data: { values: points },
    layer: [
      { mark: { type: 'line', point: { filled: true, size: 40 }, strokeWidth: 2 }, encoding: { x, y: { field: 'y', type: 'quantitative', title: yTitle, scale: { zero: true } }, color } },
      {
        transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
        mark: { type: 'errorbar', ticks: true },
        encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' }, color },
      },
    ],
    config: { font: 'Helvetica, Arial, sans-serif', legend: { orient: 'right' } },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

module.exports = { loadChart };
