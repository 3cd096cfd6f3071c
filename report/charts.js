'use strict';
// SVG charts for results.md: vega-lite specs compiled to vega and rendered headless with
// View.toSVG() (no canvas; text widths are estimated by vega). One line per series,
// optionally with 95% error bars; the x axis is the call depth (depthChart) or the
// offered load (loadChart).

const vega = require('vega');
const vl = require('vega-lite');
const { record } = require('./format');

// seriesChart({ title, points, x, y, yTitle, yZero, ci }) -> Promise<string> (SVG)
//   x: the vega-lite x encoding; y: the field of points to draw; with ci, error bars
//   from each point's lo to hi where both are valid.
async function seriesChart({ title, points, x, y, yTitle, yZero = false, ci = false, yLog = false, rule = null }) {
  const color = {
    field: 'series',
    type: 'nominal',
    title: 'strategy',
    sort: [...new Set(points.map((p) => p.series))],
  };
  // Hovering a point (HTML report) shows its figure, its interval and how many blocks
  // (fresh processes) it rests on; the static SVG ignores tooltips.
  const has = (k) => points.some((p) => p[k] !== null && p[k] !== undefined);
  const tooltip = [
    { field: 'series', type: 'nominal', title: 'strategy' },
    { field: x.field, type: 'quantitative', title: x.axis?.title ?? x.title ?? x.field },
    { field: y, type: 'quantitative', title: yTitle, format: ',.4~r' },
    ...(ci && has('lo')
      ? [
          { field: 'lo', type: 'quantitative', title: '95% CI low', format: ',.4~r' },
          { field: 'hi', type: 'quantitative', title: '95% CI high', format: ',.4~r' },
        ]
      : []),
    ...(has('blocks') ? [{ field: 'blocks', type: 'quantitative', title: 'blocks' }] : []),
  ];
  const layer = [
    {
      mark: { type: 'line', point: { filled: true, size: 40 }, strokeWidth: 2 },
      encoding: {
        x,
        y: { field: y, type: 'quantitative', title: yTitle, scale: yLog ? { type: 'log' } : { zero: yZero } },
        color,
        tooltip,
      },
    },
  ];
  // A bound drawn across the chart (an SLO), labelled.
  if (rule) {
    layer.push({
      data: { values: [{ y: rule.y, label: rule.label }] },
      mark: { type: 'rule', strokeDash: [6, 4], color: '#c0392b' },
      encoding: { y: { field: 'y', type: 'quantitative' } },
    });
    layer.push({
      data: { values: [{ y: rule.y, label: rule.label }] },
      mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#c0392b' },
      encoding: { y: { field: 'y', type: 'quantitative' }, text: { field: 'label' }, x: { value: 0 } },
    });
  }
  // Error bars go under the points, so hovering a point reaches the point's tooltip.
  if (ci) {
    layer.unshift({
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
  record({ type: 'chart', title, spec: compiled, points: points.length });
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

// depthChart({ title, points, y, yTitle, ci }): points [{ series, depth, <y>, lo?, hi? }];
// x = call depth on a log scale.
function depthChart({ title, points, y, yTitle, ci = false }) {
  const depths = [...new Set(points.map((p) => p.depth))].sort((a, b) => a - b);
  const x = {
    field: 'depth',
    type: 'quantitative',
    // Half a step of margin on each side so points and error bars clear the axes.
    scale: { type: 'log', base: 2, domain: [depths[0] / 1.5, depths[depths.length - 1] * 1.5], nice: false },
    axis: { values: depths, title: 'call depth (log scale)', format: 'd', grid: false },
  };
  return seriesChart({ title, points, x, y, yTitle, ci });
}

// loadChart({ title, points, xTitle, yTitle, yLog, rule }): points [{ series, x, y, lo?,
// hi? }]; the rate-mode chart, p99 latency against the offered load, with intervals; a
// latency-load curve across a quota's knee reads on a log scale, with its SLO as a rule.
function loadChart({ title, points, xTitle, yTitle, yLog = false, rule = null }) {
  const x = { field: 'x', type: 'quantitative', title: xTitle, scale: { zero: false, nice: false, padding: 12 } };
  return seriesChart({ title, points, x, y: 'y', yTitle, yZero: true, ci: true, yLog, rule });
}

// costPicture({ points, panels, strategies, baseline }) -> { spec, svg() } — the report's
// opening picture: one panel per headline column, each strategy a row, its figure (% of
// the baseline) as a point with its 95% interval, and 100% (the baseline) as a rule, so
// what costs and what is within noise reads before any table (criterion.rs leads so).
// points: report/strategy-summary.js picturePoints; null when there is none to draw.
function costPicture({ points, panels, strategies, baseline }) {
  if (!points.length) return null;
  const y = { field: 'strategy', type: 'nominal', sort: strategies, title: null };
  const x = { field: 'estimate', type: 'quantitative', title: `% of ${baseline}`, scale: { zero: false } };
  const tooltip = [
    { field: 'strategy', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'column' },
    { field: 'estimate', type: 'quantitative', title: `% of ${baseline}`, format: '.1f' },
    { field: 'lo', type: 'quantitative', title: '95% CI low', format: '.1f' },
    { field: 'hi', type: 'quantitative', title: '95% CI high', format: '.1f' },
  ];
  const title = `What each strategy costs: % of ${baseline}, with 95% intervals (below 100% costs more)`;
  const spec = vl.compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    background: 'white',
    data: { values: points },
    facet: {
      column: {
        field: 'panel',
        type: 'nominal',
        sort: panels,
        title: null,
        header: { labelFontSize: 12, labelLimit: 220 },
      },
    },
    spec: {
      width: 170,
      height: { step: 18 },
      layer: [
        {
          mark: { type: 'rule', color: '#8c959f', strokeDash: [4, 3] },
          encoding: { x: { datum: 100, type: 'quantitative' } },
        },
        {
          transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
          mark: { type: 'rule', strokeWidth: 2, color: '#4c78a8' },
          encoding: { y, x: { field: 'lo', type: 'quantitative', title: `% of ${baseline}` }, x2: { field: 'hi' } },
        },
        { mark: { type: 'point', filled: true, size: 45, color: '#1f4e79' }, encoding: { y, x, tooltip } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    config: { font: 'Helvetica, Arial, sans-serif' },
  }).spec;
  return {
    spec,
    title,
    async svg() {
      const view = new vega.View(vega.parse(spec), { renderer: 'none' });
      try {
        return await view.toSVG();
      } finally {
        view.finalize();
      }
    },
  };
}

module.exports = { depthChart, loadChart, costPicture };
