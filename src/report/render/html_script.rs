//! The HTML report's inline style sheet and script ([`super::html`] says what the script
//! does and what it records for the browser test).

pub const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;\
margin:2em auto;max-width:1200px;padding:0 1em;color:#222}h1{font-size:1.5em}h2{font-size:1.2em;\
margin-top:2em;border-bottom:1px solid #ccc}table{border-collapse:collapse;font-size:.9em}\
td,th{border:1px solid #ddd;padding:.3em .6em;text-align:right;white-space:nowrap}\
td.ops,th.ops{text-align:left;white-space:normal}\
tr.kernel-row{cursor:pointer}tr.kernel-row:hover{background:#eef3fb}tr.selected{background:#ffe9a8}\
tr.layer-head th{background:#f3f6fb}g.cluster{cursor:pointer}g.cluster.selected>path,\
g.cluster.selected>polygon{stroke:#d35400;stroke-width:4}g.node.folded{cursor:pointer}\
.picture{overflow:auto;border:1px solid #ddd;max-height:80vh}.picture svg{max-width:100%;\
height:auto}#plan text{font-family:Helvetica,Arial,sans-serif}.picture.wide svg{max-width:none}pre{background:#f6f6f6;padding:.8em;overflow:auto;font-size:.85em}\
.reason{font-family:monospace;color:#c0392b}.same,.note{color:#555}details{margin:.2em 0}\
g.layer{cursor:pointer}g.layer:hover rect.hit{fill:#eef3fb}g.layer.selected rect.hit{fill:#ffe9a8}\
.sw{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}";

/// Selects kernel `k` (1-based) in the picture and the table; opens layers; reads the
/// fragment on load.
pub const SCRIPT: &str = r#"(function () {
  var each = function (sel, f) { Array.prototype.forEach.call(document.querySelectorAll(sel), f); };
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.kernel-row'));
  var clusters = {};
  each('#plan g.cluster', function (g) {
    var t = g.querySelector('title');
    var m = t && /^cluster_k(\d+)$/.exec(t.textContent);
    if (m) { clusters[m[1]] = g; g.setAttribute('data-kernel', m[1]); }
  });
  function open(tbody) { if (tbody && tbody.hidden) { tbody.hidden = false; } }
  function select(k) {
    rows.forEach(function (r) { r.classList.toggle('selected', r.getAttribute('data-kernel') === k); });
    Object.keys(clusters).forEach(function (n) { clusters[n].classList.toggle('selected', n === k); });
    var row = document.getElementById('row-k' + k);
    if (row) { open(row.parentNode); }
    document.body.setAttribute('data-selected', k || '');
  }
  rows.forEach(function (r) {
    r.addEventListener('click', function () { select(r.getAttribute('data-kernel')); });
  });
  Object.keys(clusters).forEach(function (n) {
    clusters[n].addEventListener('click', function () { select(n); });
  });
  // The per-layer strip: a click opens that layer's kernels in the table.
  var layers = Array.prototype.slice.call(document.querySelectorAll('#layers g.layer'));
  function openLayer(i) {
    var tbody = document.querySelector('#kernels tbody[data-row="' + i + '"]');
    layers.forEach(function (g) { g.classList.toggle('selected', g.getAttribute('data-row') === i); });
    open(tbody);
    var detail = document.getElementById('layer-detail');
    if (detail && tbody) {
      var head = tbody.querySelector('tr.layer-head');
      var first = tbody.querySelector('tr.kernel-row');
      detail.textContent = (head ? head.textContent : '') + ' — opened in the kernel table';
      if (first) {
        var a = document.createElement('a');
        a.href = '#' + first.id;
        a.textContent = ' (go to it)';
        detail.appendChild(a);
      }
    }
    document.body.setAttribute('data-open-layer', i);
  }
  layers.forEach(function (g) {
    g.addEventListener('click', function () { openLayer(g.getAttribute('data-row')); });
  });
  // Folded ranges in the picture: a click opens their layers' kernels.
  var folded = 0;
  each('#plan g.node', function (g) {
    var t = g.querySelector('title');
    var m = t && /^fold_r\d+$/.exec(t.textContent);
    if (!m) { return; }
    folded += 1;
    g.classList.add('folded');
    g.addEventListener('click', function () {
      each('#kernels tbody[data-range="' + m[0] + '"]', open);
      document.getElementById('kernels').scrollIntoView();
    });
  });
  var b = document.body;
  b.setAttribute('data-kernel-rows', String(rows.length));
  b.setAttribute('data-kernel-clusters', String(Object.keys(clusters).length));
  b.setAttribute('data-layers', String(document.querySelectorAll('#layers g.layer:not(.outside)').length));
  b.setAttribute('data-folded-nodes', String(folded));
  b.setAttribute('data-open-tbodies', String(document.querySelectorAll('#kernels tbody:not([hidden])').length));
  // A picture wider than the page opens scrolled to its first kernel (or node).
  var plan = document.getElementById('plan');
  var firstCluster = plan && plan.querySelector('g.cluster, g.node');
  if (firstCluster && plan.scrollWidth > plan.clientWidth) {
    var pr = plan.getBoundingClientRect(), fr = firstCluster.getBoundingClientRect();
    plan.scrollLeft += Math.max(0, fr.left - pr.left - 40);
    plan.scrollTop += Math.max(0, fr.top - pr.top - 40);
  }
  // Where the picture is on the page (CSS pixels), for the screenshot test.
  if (plan) {
    var r = plan.getBoundingClientRect();
    b.setAttribute('data-plan-box', [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(Math.round).join(','));
  }
  var m = /^#kernel-(\d+)$/.exec(location.hash);
  if (m) { select(m[1]); }
  // `#click-row-N` / `#click-cluster-N` / `#click-layer-N`: a real click on that element
  // (for tests and links).
  var c = /^#click-(row|cluster|layer)-(\d+)$/.exec(location.hash);
  if (c) {
    var el = c[1] === 'row' ? document.getElementById('row-k' + c[2])
      : c[1] === 'cluster' ? clusters[c[2]]
      : document.querySelector('#layers g.layer[data-row="' + c[2] + '"]');
    if (el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }
    b.setAttribute('data-open-tbodies', String(document.querySelectorAll('#kernels tbody:not([hidden])').length));
  }
})();"#;
