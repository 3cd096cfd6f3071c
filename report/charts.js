'use strict';
// SVG charts for results.md: vega-lite specs compiled to vega and rendered headless with
// View.toSVG() (no canvas; text widths are estimated by vega).

const vega = require('vega');
const vl = require('vega-lite');

// depthChart({ title, points, y, yTitle, ci }) -> Promise<string> (SVG)
//   points: [{ series, depth, <y>, lo?, hi? }]; x = call depth on a log scale, one line per
//   series; with ci: true, error bars from lo to hi.
async function depthChart({ title, points, y, yTitle, ci = false }) {
  const depths = [...new Set(points.map((p) => p.depth))].sort((a, b) => a - b);
  const x = {
    field: 'depth',
    type: 'quantitative',
    // Half a step of margin on each side so points and error bars clear the axes.
    scale: { type: 'log', base: 2, domain: [depths[0] / 1.5, depths[depths.length - 1] * 1.5], nice: false },
    axis: { values: depths, title: 'call depth (log scale)', format: 'd', grid: false },
  };
  const color = { field: 'series', type: 'nominal', title: 'strategy', sort: [...new Set(points.map((p) => p.series))] };
  const layer = [
    {
      mark: { type: 'line', point: { filled: true, size: 40 }, strokeWidth: 2 },
      encoding: { x, y: { field: y, type: 'quantitative', title: yTitle, scale: { zero: false } }, color },
    },
  ];
  if (ci) {
    layer.push({
      transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
      mark: { type: 'errorbar', ticks: true },
      encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' }, color },
    });
  }
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 520,
    height: 280,
    background: 'white',
    data: { values: points },
    layer,
    config: { font: 'Helvetica, Arial, sans-serif', legend: { orient: 'right' } },
  };
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

module.exports = { depthChart };
