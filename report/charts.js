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

// The opening picture fits a 1280-px screen beside the page's margins: the panels share
// PICTURE.width px with the strategies' names, each between min and max px wide, and
// wrap into rows when more than fit at min.
const PICTURE = { width: 1140, min: 120, max: 260, gap: 16, step: 17 };

// A panel's axis is set by its points, not by their intervals: it spans 100% (the
// baseline) and every estimate, plus a margin (a tenth of that span, at least 5 pp),
// rounded out to 5 pp and never below 0. An interval reaching past the axis is drawn to
// the axis's edge and ends in an arrow, so one wide interval (a capacity measured in a few
// windows) cannot squeeze every other point of its panel into a corner.
function pictureAxis(estimates) {
  const lo = Math.min(100, ...estimates);
  const hi = Math.max(100, ...estimates);
  const pad = Math.max(5, (hi - lo) / 10);
  return [Math.max(0, Math.floor((lo - pad) / 5) * 5), Math.ceil((hi + pad) / 5) * 5];
}

// A compiled spec's drawn width in px, padding included (laid out off screen).
function layoutWidth(spec) {
  const view = new vega.View(vega.parse(spec), { renderer: 'none' }).run();
  try {
    const pad = view.padding();
    return view.scenegraph().root.bounds.width() + (pad.left ?? 0) + (pad.right ?? 0);
  } finally {
    view.finalize();
  }
}

// The points with what is drawn of their intervals: each end clipped to its panel's axis,
// and whether it was (an arrow marks a clipped end).
function pictureValues(points, axes) {
  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  return points.map((p) => {
    const [from, to] = axes[p.panel];
    const ci = isNum(p.lo) && isNum(p.hi);
    return {
      ...p,
      shownLo: ci ? Math.max(p.lo, from) : null,
      shownHi: ci ? Math.min(p.hi, to) : null,
      clipLo: ci && p.lo < from,
      clipHi: ci && p.hi > to,
    };
  });
}

// The picture's compiled vega spec with its panels in `columns` columns, each `width` px.
function compilePicture({ values, panels, strategies, baseline, axes, title }, columns, width) {
  const clipped = values.some((v) => v.clipLo || v.clipHi);
  const tooltip = [
    { field: 'strategy', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'column' },
    { field: 'estimate', type: 'quantitative', title: `% of ${baseline}`, format: '.1f' },
    { field: 'lo', type: 'quantitative', title: '95% CI low', format: '.1f' },
    { field: 'hi', type: 'quantitative', title: '95% CI high', format: '.1f' },
  ];
  const x = (field, panel) => ({
    field,
    type: 'quantitative',
    title: `% of ${baseline}`,
    scale: { domain: axes[panel], nice: false, zero: false },
  });
  // Names on the first panel of each row; faint lines carry each row across the others.
  const y = (i) => ({
    field: 'strategy',
    type: 'nominal',
    sort: strategies,
    scale: { domain: strategies },
    title: null,
    axis: { labels: i % columns === 0, ticks: i % columns === 0, domain: false, grid: true, gridColor: '#eef1f4' },
  });
  const arrow = (flag, field, shape, panel, i) => ({
    transform: [{ filter: `datum.${flag}` }],
    mark: { type: 'point', shape, filled: true, size: 60, color: '#4c78a8' },
    encoding: { y: y(i), x: x(field, panel), tooltip },
  });
  return vl.compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: title,
      anchor: 'start',
      ...(clipped ? { subtitle: "▸ an interval that runs past its panel's axis (its ends are in the table)" } : {}),
    },
    background: 'white',
    data: { values },
    columns,
    spacing: PICTURE.gap,
    concat: panels.map((panel, i) => ({
      title: { text: panel, fontSize: 12, fontWeight: 'normal', limit: width },
      width,
      height: { step: PICTURE.step },
      transform: [{ filter: { field: 'panel', equal: panel } }],
      layer: [
        {
          mark: { type: 'rule', color: '#8c959f', strokeDash: [4, 3] },
          encoding: { x: { datum: 100, type: 'quantitative', scale: { domain: axes[panel], nice: false } } },
        },
        {
          transform: [{ filter: 'isValid(datum.shownLo) && isValid(datum.shownHi)' }],
          mark: { type: 'rule', strokeWidth: 2, color: '#4c78a8' },
          encoding: { y: y(i), x: x('shownLo', panel), x2: { field: 'shownHi' } },
        },
        // The points before the arrows: the first symbol a reader (or the browser test) hovers is a figure.
        {
          mark: { type: 'point', filled: true, size: 45, color: '#1f4e79' },
          encoding: { y: y(i), x: x('estimate', panel), tooltip },
        },
        arrow('clipLo', 'shownLo', 'triangle-left', panel, i),
        arrow('clipHi', 'shownHi', 'triangle-right', panel, i),
      ],
    })),
    config: { font: 'Helvetica, Arial, sans-serif' },
  }).spec;
}

// Laid out, not estimated: all panels in a row at max px each, narrowed by what the
// layout overflows (the names and axis labels take what vega measures), wrapped a
// column at a time while a panel would be narrower than min px.
function fitPicture(picture) {
  const { panels } = picture;
  let spec = null;
  for (let columns = panels.length; columns >= 1 && !spec; columns--) {
    let width = PICTURE.max;
    for (let tries = 0; tries < 3 && width >= PICTURE.min; tries++) {
      const candidate = compilePicture(picture, columns, width);
      const over = layoutWidth(candidate) - PICTURE.width;
      if (over <= 0) spec = candidate;
      if (over <= 0) break;
      width -= Math.ceil(over / columns);
    }
  }
  spec ??= compilePicture(picture, 1, PICTURE.min);
  return spec;
}

// costPicture({ points, panels, strategies, baseline }) -> { spec, title, axes, svg() } —
// the report's opening picture: one panel per headline column, each strategy a row, its
// figure (% of the baseline) as a point with its 95% interval, and 100% (the baseline) as
// a rule, so what costs and what is within noise reads before any table (criterion.rs
// leads so). points: report/strategy-summary.js picturePoints; null when there is none to
// draw. axes: { [panel]: [from, to] } (pictureAxis).
function costPicture({ points, panels, strategies, baseline }) {
  if (!points.length) return null;
  const axes = Object.fromEntries(
    panels.map((panel) => [panel, pictureAxis(points.filter((p) => p.panel === panel).map((p) => p.estimate))]),
  );
  const values = pictureValues(points, axes);
  const title = `What each strategy costs: % of ${baseline}, with 95% intervals (below 100% costs more)`;
  const spec = fitPicture({ values, panels, strategies, baseline, axes, title });
  return {
    spec,
    title,
    axes,
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

module.exports = { depthChart, loadChart, costPicture, pictureAxis, PICTURE };
