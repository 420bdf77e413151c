/** The data one visualisation page shows. */
export interface VizData {
  readonly task: string;
  readonly generatedAt: string;
  readonly repository: string;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  readonly ranked: number;
  readonly keywords: readonly string[];
  readonly matchedClasses: readonly string[];
  readonly nodes: readonly VizNode[];
  readonly edges: readonly VizEdge[];
}

export interface VizNode {
  readonly id: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly kind: string;
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly doc: string;
  readonly rank: number;
  readonly score: number;
  readonly distance: number;
  readonly rwr: number;
  readonly components: Readonly<Record<string, number>>;
  readonly provenance: string | null;
  readonly seed: { readonly weight: number; readonly origin: string; readonly channels: readonly string[] } | null;
  readonly channels: Readonly<Record<string, string>>;
  readonly walk: { readonly score: number; readonly hops: number } | null;
  readonly hits: { readonly hub: number; readonly authority: number } | null;
  readonly forced: boolean;
  readonly why: string;
}

export interface VizEdge {
  readonly source: string;
  readonly target: string;
  readonly type: string;
}

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * JSON that is safe inside a `<script>` element: no `</script>`, no `<!--`, and no line
 * separators that older parsers treat as line ends.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const STYLE = `
:root { --bg: #fbfbfa; --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #ffffff; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 14px 20px 10px; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 17px; margin: 0 0 4px; font-weight: 600; }
.meta { color: var(--muted); font-size: 12.5px; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 380px; min-height: calc(100vh - 70px); }
#stage { position: relative; border-right: 1px solid var(--line); }
svg { width: 100%; height: 100%; min-height: 560px; display: block; cursor: grab; }
.edge { stroke: #8c959f; stroke-opacity: .55; fill: none; }
.edge.hot { stroke: var(--accent); stroke-opacity: 1; stroke-width: 2; }
.node circle { stroke: #fff; stroke-width: 1.5; cursor: pointer; }
.node.selected circle { stroke: #000; stroke-width: 3; }
.node.dim { opacity: .25; }
.node text { font-size: 11px; fill: var(--fg); pointer-events: none; paint-order: stroke; stroke: var(--bg); stroke-width: 3px; }
aside { padding: 14px 18px; overflow: auto; max-height: calc(100vh - 70px); background: var(--panel); }
aside h2 { font-size: 15px; margin: 0 0 2px; word-break: break-all; }
aside h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 16px 0 4px; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
td { padding: 2px 6px 2px 0; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.bar { height: 7px; background: var(--accent); border-radius: 2px; opacity: .7; }
code, pre { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: 6px 8px; border-radius: 4px; margin: 4px 0; }
.why { background: #fff8c5; border: 1px solid #eac54f; padding: 6px 8px; border-radius: 4px; }
.legend { position: absolute; left: 12px; bottom: 10px; background: rgba(255,255,255,.9); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; font-size: 12px; }
.legend span { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin: 0 4px 0 10px; vertical-align: -1px; }
#list { margin-top: 8px; }
#list tr { cursor: pointer; }
#list tr:hover { background: #f3f4f6; }
#list tr.selected { background: #ddf4ff; }
.tip { position: absolute; pointer-events: none; background: #1f2328; color: #fff; padding: 3px 7px; border-radius: 4px; font-size: 12px; display: none; white-space: nowrap; }
.empty { padding: 40px; color: var(--muted); }
`;

/** Layout, drawing and interaction; reads the data from the JSON script element. */
const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('knowing-data').textContent);
  var svg = document.getElementById('graph');
  var NS = svg.namespaceURI;
  var COLORS = ['#cf222e', '#bf8700', '#0969da', '#8250df', '#6e7781'];
  function color(d) { return COLORS[Math.min(d, COLORS.length - 1)]; }
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function fmt(x) { return x === 0 ? '0' : Math.abs(x) < 1e-4 ? x.toExponential(2) : x.toFixed(4); }

  var nodes = data.nodes.map(function (n, i) {
    var a = 2 * Math.PI * i / Math.max(1, data.nodes.length);
    var r = 60 + 40 * n.distance;
    return { d: n, x: Math.cos(a) * r, y: Math.sin(a) * r, vx: 0, vy: 0 };
  });
  var byId = {};
  nodes.forEach(function (n) { byId[n.d.id] = n; });
  var edges = data.edges.filter(function (e) { return byId[e.source] && byId[e.target] && e.source !== e.target; })
    .map(function (e) { return { s: byId[e.source], t: byId[e.target], type: e.type }; });
  var maxScore = nodes.reduce(function (m, n) { return Math.max(m, n.d.score); }, 0) || 1;
  nodes.forEach(function (n) { n.r = 5 + 13 * Math.sqrt(Math.max(0, n.d.score) / maxScore); });

  // Force-directed layout: pairwise repulsion, springs along edges, a pull towards the centre
  // that is stronger for symbols closer to the seeds. A fixed number of cooling steps.
  for (var step = 0; step < 400; step++) {
    var heat = 1 - step / 400;
    for (var i = 0; i < nodes.length; i++) {
      var a = nodes[i];
      for (var j = i + 1; j < nodes.length; j++) {
        var b = nodes[j];
        var dx = a.x - b.x, dy = a.y - b.y;
        var d2 = dx * dx + dy * dy + 0.01;
        var f = 1800 / d2;
        var d = Math.sqrt(d2);
        a.vx += f * dx / d; a.vy += f * dy / d;
        b.vx -= f * dx / d; b.vy -= f * dy / d;
      }
    }
    edges.forEach(function (e) {
      var dx = e.t.x - e.s.x, dy = e.t.y - e.s.y;
      var d = Math.sqrt(dx * dx + dy * dy) + 0.01;
      var f = (d - 90) * 0.02;
      e.s.vx += f * dx / d; e.s.vy += f * dy / d;
      e.t.vx -= f * dx / d; e.t.vy -= f * dy / d;
    });
    nodes.forEach(function (n) {
      var pull = 0.012 / (1 + n.d.distance);
      n.vx -= n.x * pull; n.vy -= n.y * pull;
      n.x += Math.max(-20, Math.min(20, n.vx * heat));
      n.y += Math.max(-20, Math.min(20, n.vy * heat));
      n.vx *= 0.6; n.vy *= 0.6;
    });
  }

  var minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  nodes.forEach(function (n) {
    minX = Math.min(minX, n.x - n.r - 10); maxX = Math.max(maxX, n.x + n.r + 120);
    minY = Math.min(minY, n.y - n.r - 10); maxY = Math.max(maxY, n.y + n.r + 20);
  });
  if (!nodes.length) { minX = -100; minY = -100; maxX = 100; maxY = 100; }
  var view = { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
  function applyView() { svg.setAttribute('viewBox', view.x + ' ' + view.y + ' ' + view.w + ' ' + view.h); }
  applyView();

  var defs = el('defs', {}, svg);
  var marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#8c959f' }, marker);
  var edgeLayer = el('g', {}, svg);
  var nodeLayer = el('g', {}, svg);
  var tip = document.getElementById('tip');

  edges.forEach(function (e) {
    var dx = e.t.x - e.s.x, dy = e.t.y - e.s.y;
    var d = Math.sqrt(dx * dx + dy * dy) || 1;
    e.el = el('line', {
      x1: e.s.x + dx / d * e.s.r, y1: e.s.y + dy / d * e.s.r,
      x2: e.t.x - dx / d * (e.t.r + 2), y2: e.t.y - dy / d * (e.t.r + 2),
      'class': 'edge', 'marker-end': 'url(#arrow)'
    }, edgeLayer);
    el('title', {}, e.el).textContent = e.s.d.name + ' ' + e.type + ' ' + e.t.d.name;
  });
  nodes.forEach(function (n) {
    var g = el('g', { 'class': 'node', transform: 'translate(' + n.x + ',' + n.y + ')' }, nodeLayer);
    el('circle', { r: n.r, fill: color(n.d.distance) }, g);
    el('text', { x: n.r + 3, y: 4 }, g).textContent = n.d.name;
    n.el = g;
    g.addEventListener('mouseenter', function (ev) { hover(n, ev); });
    g.addEventListener('mousemove', function (ev) { moveTip(ev); });
    g.addEventListener('mouseleave', function () { hover(null); });
    g.addEventListener('click', function (ev) { ev.stopPropagation(); select(n); });
  });

  function moveTip(ev) {
    var box = svg.parentNode.getBoundingClientRect();
    tip.style.left = (ev.clientX - box.left + 12) + 'px';
    tip.style.top = (ev.clientY - box.top + 12) + 'px';
  }
  function hover(n, ev) {
    var near = {};
    if (n) {
      near[n.d.id] = true;
      edges.forEach(function (e) { if (e.s === n || e.t === n) { near[e.s.d.id] = near[e.t.d.id] = true; } });
      tip.textContent = '#' + n.d.rank + ' ' + n.d.qualifiedName + '  score ' + fmt(n.d.score);
      tip.style.display = 'block';
      moveTip(ev);
    } else {
      tip.style.display = 'none';
    }
    nodes.forEach(function (m) { m.el.classList.toggle('dim', !!n && !near[m.d.id]); });
    edges.forEach(function (e) { e.el.classList.toggle('hot', !!n && (e.s === n || e.t === n)); });
  }

  var selected = null;
  var details = document.getElementById('details');
  function row(table, label, value, cls) {
    var tr = h('tr');
    tr.appendChild(h('td', label));
    tr.appendChild(h('td', value, cls));
    table.appendChild(tr);
  }
  function select(n) {
    if (selected) selected.el.classList.remove('selected');
    selected = n;
    Array.prototype.forEach.call(document.querySelectorAll('#list tr'), function (tr) {
      tr.classList.toggle('selected', !!n && tr.getAttribute('data-id') === n.d.id);
    });
    details.textContent = '';
    if (!n) { details.appendChild(h('p', 'Click a symbol to see why it was chosen.', 'meta')); return; }
    n.el.classList.add('selected');
    var s = n.d;
    details.appendChild(h('h2', s.qualifiedName));
    details.appendChild(h('div', s.kind + (s.file ? ' \\u00b7 ' + s.file + ':' + s.startLine + '-' + s.endLine : ''), 'meta'));
    if (s.signature) details.appendChild(h('pre', s.signature));
    details.appendChild(h('h3', 'Why it was chosen'));
    details.appendChild(h('div', s.why, 'why'));
    var t = h('table');
    row(t, 'rank', '#' + s.rank);
    row(t, 'score', fmt(s.score), 'num');
    row(t, 'distance', s.distance === 0 ? '0 (seed)' : s.distance + ' from a seed');
    row(t, 'walk (rwr)', fmt(s.rwr), 'num');
    if (s.walk) row(t, 'walk hops', String(s.walk.hops));
    if (s.hits) { row(t, 'HITS hub', fmt(s.hits.hub), 'num'); row(t, 'HITS authority', fmt(s.hits.authority), 'num'); }
    if (s.provenance) row(t, 'provenance', s.provenance);
    details.appendChild(h('h3', 'Evidence'));
    details.appendChild(t);
    var channels = Object.keys(s.channels);
    if (s.seed || channels.length) {
      details.appendChild(h('h3', 'Seed channels'));
      var c = h('table');
      if (s.seed) row(c, 'seed weight', fmt(s.seed.weight) + ' (' + s.seed.origin + ')');
      channels.forEach(function (k) { row(c, k, s.channels[k]); });
      details.appendChild(c);
    }
    var comps = Object.keys(s.components);
    if (comps.length) {
      details.appendChild(h('h3', 'Score components'));
      var max = comps.reduce(function (m, k) { return Math.max(m, Math.abs(s.components[k])); }, 0) || 1;
      var ct = h('table');
      comps.sort(function (a, b) { return Math.abs(s.components[b]) - Math.abs(s.components[a]); }).forEach(function (k) {
        var tr = h('tr');
        tr.appendChild(h('td', k));
        tr.appendChild(h('td', fmt(s.components[k]), 'num'));
        var barCell = h('td');
        barCell.style.width = '40%';
        var bar = h('div', null, 'bar');
        bar.style.width = Math.round(100 * Math.abs(s.components[k]) / max) + '%';
        barCell.appendChild(bar);
        tr.appendChild(barCell);
        ct.appendChild(tr);
      });
      details.appendChild(ct);
    }
    if (s.doc) { details.appendChild(h('h3', 'Doc')); details.appendChild(h('pre', s.doc)); }
  }
  svg.addEventListener('click', function () { select(null); });

  var list = document.getElementById('list');
  nodes.slice().sort(function (a, b) { return a.d.rank - b.d.rank; }).forEach(function (n) {
    var tr = h('tr');
    tr.setAttribute('data-id', n.d.id);
    tr.appendChild(h('td', '#' + n.d.rank));
    var name = h('td', n.d.name);
    name.title = n.d.qualifiedName;
    tr.appendChild(name);
    tr.appendChild(h('td', n.d.kind, 'meta'));
    tr.appendChild(h('td', fmt(n.d.score), 'num'));
    tr.addEventListener('click', function () { select(n); });
    list.appendChild(tr);
  });

  // Drag to pan, wheel to zoom.
  var drag = null;
  svg.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y }; });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var scale = view.w / svg.clientWidth;
    view.x = drag.vx - (ev.clientX - drag.x) * scale;
    view.y = drag.vy - (ev.clientY - drag.y) * scale;
    applyView();
  });
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var k = ev.deltaY > 0 ? 1.15 : 1 / 1.15;
    var cx = view.x + view.w / 2, cy = view.y + view.h / 2;
    view.w *= k; view.h *= k; view.x = cx - view.w / 2; view.y = cy - view.h / 2;
    applyView();
  }, { passive: false });
  if (nodes.length) select(nodes.slice().sort(function (a, b) { return a.d.rank - b.d.rank; })[0]);
})();
`;

/** A self-contained page: inline style and script, no network access, every string escaped. */
export function renderVizPage(data: VizData): string {
  const title = `knowing: ${data.task}`;
  const meta = [
    `${data.nodes.length} of ${data.ranked} ranked symbols`,
    `${data.tokensUsed} of ${data.tokenBudget} tokens`,
    data.repository,
    data.generatedAt,
  ].join(' · ');
  const keywords = data.keywords.length ? `keywords: ${data.keywords.join(', ')}` : '';
  const classes = data.matchedClasses.length ? ` · vocabulary: ${data.matchedClasses.join(', ')}` : '';
  const body =
    data.nodes.length === 0
      ? `<p class="empty">No symbols matched this task. Try other words (names of functions or files help).</p>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(data.task)}</h1>
<div class="meta">${escapeHtml(meta)}</div>
<div class="meta">${escapeHtml(keywords + classes)}</div>
</header>
<main>
<div id="stage">
${body}<svg id="graph" role="img" aria-label="graph of the chosen symbols"></svg>
<div class="legend">distance from the seeds:<span style="background:#cf222e"></span>0<span style="background:#bf8700"></span>1<span style="background:#0969da"></span>2<span style="background:#8250df"></span>3<span style="background:#6e7781"></span>4+ · size = score</div>
<div id="tip" class="tip"></div>
</div>
<aside>
<div id="details"></div>
<h3>All chosen symbols</h3>
<table id="list"></table>
</aside>
</main>
<script type="application/json" id="knowing-data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
