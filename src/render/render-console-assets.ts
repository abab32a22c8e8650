// The docs console's inline style and script (render-console.ts). Plain CSS and ES2020 JavaScript, no
// dependency: the page must work with nothing downloaded. The script reads the page's data from the
// `console-data` JSON element and writes every answer with textContent, never as HTML. Every request is sent
// with `credentials: 'omit'`: the pasted credential is the only one, and a 401 with a Basic challenge is shown
// as the declared answer instead of making the browser open its own sign-in dialog (and hold the request).

export const CONSOLE_STYLE = `
:root { --bg: #ffffff; --fg: #1b1b1b; --muted: #5c5c5c; --line: #d6d6d6; --soft: #f4f5f7; --accent: #1f4f99; --code: #f1f1f1;
  --ok: #1a7f37; --bad: #b42318; --warn-bg: #fff4d6; --warn-fg: #6b4b00; --side: #f7f8fa; color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15171a; --fg: #e6e6e6; --muted: #a3a3a3; --line: #3a3d42; --soft: #1f2226; --accent: #8ab4f8; --code: #24272c;
    --ok: #57c26b; --bad: #ff7b72; --warn-bg: #3b3000; --warn-fg: #ffd76a; --side: #1b1d21; }
}
* { box-sizing: border-box; }
html { scroll-behavior: auto; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0;
  display: grid; grid-template-columns: 17rem minmax(0, 1fr); }
a { color: var(--accent); }
code, pre, textarea, input, select { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { font-size: .9em; background: var(--code); padding: .05em .3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: var(--code); padding: .6rem .8rem; border-radius: 6px; overflow: auto; max-height: 22rem; margin: .3rem 0 .8rem; }
pre code { background: none; padding: 0; }
.sidebar { position: sticky; top: 0; height: 100vh; overflow-y: auto; background: var(--side); border-right: 1px solid var(--line); padding: 1rem .8rem 2rem; }
.brand { font-weight: 700; font-size: 1.1rem; margin-bottom: .6rem; }
.search input { width: 100%; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); font-family: inherit; }
#search-results { list-style: none; margin: .4rem 0 .8rem; padding: 0; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); max-height: 50vh; overflow-y: auto; }
#search-results li a { display: block; padding: .3rem .5rem; text-decoration: none; color: var(--fg); border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
#search-results li a:hover, #search-results li a:focus { background: var(--soft); }
#search-results .kind { font-size: .75em; color: var(--muted); margin-left: .3rem; }
.toc { list-style: none; margin: .6rem 0 0; padding: 0; font-size: .9rem; }
.toc li a { display: block; padding: .15rem .3rem; text-decoration: none; color: var(--fg); border-radius: 4px; overflow-wrap: anywhere; }
.toc li a:hover { background: var(--soft); }
.toc li.l2 { margin-top: .35rem; font-weight: 600; }
.toc li.l3 { padding-left: .8rem; font-size: .85rem; }
.toc .method { font-size: .7rem; min-width: 3.3rem; }
.content { min-width: 0; }
.bar { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: .5rem 1.5rem;
  display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.bar label, form.try label, .viewer-controls label { display: inline-flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .1rem; }
.bar input, .bar select, form.try input, form.try select, form.try textarea, .viewer-controls input { font-size: .85rem; padding: .3rem .45rem; border: 1px solid var(--line); border-radius: 5px; background: var(--bg); color: var(--fg); min-width: 0; }
.bar .base input { width: 16rem; }
#credential-fields { display: inline-flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
form.try .fields input { width: 17rem; max-width: 100%; }
.bar .note { flex-basis: 100%; margin: 0; font-size: .8rem; color: var(--warn-fg); }
button { font: inherit; font-size: .85rem; padding: .35rem .8rem; border-radius: 5px; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button:disabled { opacity: .5; cursor: default; }
main { max-width: 64rem; padding: 1rem 1.5rem 4rem; }
h1, h2, h3, h4 { line-height: 1.25; scroll-margin-top: 5rem; }
[id] { scroll-margin-top: 5rem; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; max-width: 100%; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--soft); }
tr:target td { background: var(--warn-bg); }
figure { margin: 1rem 0; overflow-x: auto; }
figcaption { font-size: .9em; color: var(--muted); }
svg.state-diagram { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; max-width: none; }
svg.state-diagram .state rect { fill: var(--bg); stroke: var(--fg); stroke-width: 1.3; }
svg.state-diagram .state.terminal rect { fill: var(--soft); }
svg.state-diagram .state text { fill: var(--fg); }
svg.state-diagram .edges path { fill: none; stroke: var(--fg); stroke-width: 1.2; }
svg.state-diagram marker path, svg.state-diagram .start { fill: var(--fg); }
svg.state-diagram .label { fill: var(--accent); paint-order: stroke; stroke: var(--bg); stroke-width: 4px; stroke-linejoin: round; }
.muted { color: var(--muted); }
.route { border: 1px solid var(--line); border-radius: 8px; padding: .2rem 1rem .8rem; margin: 1rem 0; }
.route h3 { display: flex; flex-wrap: wrap; gap: .4rem; align-items: baseline; }
.route .path { font-size: .95rem; }
.route .opid { color: var(--muted); font-weight: 400; font-size: .85rem; }
.route .anchor { color: var(--muted); text-decoration: none; font-weight: 400; }
.route .anchor:hover { color: var(--accent); }
.method { display: inline-block; font: 700 .75rem ui-monospace, monospace; padding: .1rem .35rem; border-radius: 4px; color: #fff; background: #555; text-align: center; }
.m-get { background: #1f6feb; } .m-post { background: #1a7f37; } .m-put { background: #9a6700; } .m-patch { background: #8250df; } .m-delete { background: #b42318; }
dl.facts { display: grid; grid-template-columns: 8rem minmax(0, 1fr); gap: .2rem .8rem; margin: .4rem 0 .8rem; font-size: .9rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.example .ex-head { font-size: .9rem; }
.tag { display: inline-block; font-size: .75rem; padding: .05rem .4rem; border-radius: 4px; margin: .2rem 0; }
.tag.generated { background: var(--warn-bg); color: var(--warn-fg); border: 1px dashed var(--warn-fg); }
.tag.declared { background: var(--soft); color: var(--ok); border: 1px solid var(--line); }
details { margin: .4rem 0; }
summary { cursor: pointer; font-weight: 600; font-size: .9rem; }
form.try { margin-top: .5rem; display: flex; flex-direction: column; gap: .5rem; }
form.try .fields { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
form.try label.body textarea { width: 100%; resize: vertical; }
form.try label em, .viewer-controls label em { font-style: normal; opacity: .7; }
form.try button { align-self: flex-start; }
.result:empty { display: none; }
.result .status, .viewer-log .status { font-weight: 700; font-family: ui-monospace, monospace; }
.status.ok { color: var(--ok); } .status.bad { color: var(--bad); }
.schema-tree, .schema-tree ul { list-style: none; margin: 0; padding-left: 1rem; font-size: .88rem; }
.schema-tree { padding-left: 0; margin: .3rem 0 .6rem; }
.schema-tree li { margin: .15rem 0; overflow-wrap: anywhere; }
.schema-tree summary { font-weight: 400; font-size: inherit; }
.schema-tree .type { color: var(--accent); font-family: ui-monospace, monospace; font-size: .85em; }
.schema-tree .req { color: var(--bad); font-size: .8em; } .schema-tree .opt { color: var(--muted); font-size: .8em; }
.schema-tree .facts, .schema-tree .desc { color: var(--muted); }
.samples { margin: .6rem 0; }
.sample-bar { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; font-size: .9rem; }
.sample-tab { background: var(--bg); color: var(--accent); padding: .15rem .6rem; }
.sample-tab[aria-selected="true"] { background: var(--accent); color: var(--bg); }
.samples .copy { padding: .15rem .6rem; }
.viewer-controls { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.viewer-log { list-style: none; padding: 0; margin: 1rem 0; max-height: 30rem; overflow-y: auto; }
.viewer-log li { border-left: 3px solid var(--accent); padding: .1rem .6rem; margin: .4rem 0; }
.brand-row { display: flex; align-items: center; justify-content: space-between; gap: .5rem; }
#nav-toggle { display: none; }
@media (max-width: 900px) {
  /* Narrow: the contents fold away behind a button, so the first screen is the service, not the contents. */
  body { display: block; }
  .sidebar { position: static; height: auto; border-right: 0; border-bottom: 1px solid var(--line); padding: .5rem .8rem; }
  .brand { margin: 0; }
  #nav-toggle { display: inline-block; }
  .search { margin-top: .4rem; }
  .toc { display: none; max-height: 70vh; overflow-y: auto; }
  body.nav-open .toc { display: block; }
  .bar { position: static; padding: .5rem .8rem; }
  .bar .base input { width: 100%; }
  .bar label.base { flex-basis: 100%; }
  main { padding: .5rem .8rem 3rem; }
  .route { padding: .2rem .6rem .6rem; }
  dl.facts { grid-template-columns: 6rem minmax(0, 1fr); }
  form.try .fields input { width: 100%; }
}
`.trim();

export const CONSOLE_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('console-data').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

  // Base URL: the page's own origin when the service serves it; typed in when the page is a file.
  var baseInput = $('base-url');
  if (data.served && /^https?:$/.test(location.protocol)) baseInput.value = location.origin;
  var base = function () { return baseInput.value.trim().replace(/\/+$/, ''); };

  // ---- Code samples -------------------------------------------------------------------------------------------
  // Each sample is kept as a template with the base URL mark; the shown text has the base URL typed above.
  var sampleBase = function () { return base() || 'http://localhost:3000'; };
  var fillSamples = function () {
    Array.prototype.forEach.call(document.querySelectorAll('code[data-template]'), function (c) { c.textContent = c.getAttribute('data-template').split('{{BASE_URL}}').join(sampleBase()); });
  };
  fillSamples();
  baseInput.addEventListener('input', fillSamples);
  Array.prototype.forEach.call(document.querySelectorAll('.samples'), function (box) {
    var tabs = box.querySelectorAll('.sample-tab'), panes = box.querySelectorAll('.sample'), status = box.querySelector('.copy-status');
    Array.prototype.forEach.call(tabs, function (t) {
      t.addEventListener('click', function () {
        Array.prototype.forEach.call(tabs, function (x) { x.setAttribute('aria-selected', String(x === t)); });
        Array.prototype.forEach.call(panes, function (p) { p.hidden = p.getAttribute('data-language') !== t.getAttribute('data-language'); });
        status.textContent = '';
      });
    });
    box.querySelector('.copy').addEventListener('click', function () {
      var pane = box.querySelector('.sample:not([hidden]) code'), text = pane.textContent;
      window.servicespecCopied = text;
      var done = function () { status.textContent = 'copied'; };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () { selectText(pane); status.textContent = 'selected: press Ctrl+C to copy'; });
      else { selectText(pane); status.textContent = 'selected: press Ctrl+C to copy'; }
    });
  });
  function selectText(node) { var range = document.createRange(); range.selectNodeContents(node); var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range); }

  // ---- Search -------------------------------------------------------------------------------------------------
  var search = $('search'), results = $('search-results');
  search.addEventListener('input', function () {
    var q = search.value.trim().toLowerCase();
    results.textContent = '';
    if (q === '') { results.hidden = true; return; }
    var hits = data.search.filter(function (e) { return (e.label + ' ' + e.text + ' ' + e.kind).toLowerCase().indexOf(q) >= 0; }).slice(0, 40);
    if (hits.length === 0) results.appendChild(el('li', 'none', 'nothing matches'));
    hits.forEach(function (e) {
      var li = el('li'), a = el('a', '', e.label);
      a.href = e.href;
      a.appendChild(el('span', 'kind', e.kind));
      li.appendChild(a);
      results.appendChild(li);
    });
    results.hidden = false;
  });
  search.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') { var first = results.querySelector('a'); if (first) { ev.preventDefault(); location.hash = first.getAttribute('href'); } }
    if (ev.key === 'Escape') { search.value = ''; results.hidden = true; }
  });

  // ---- Credential ---------------------------------------------------------------------------------------------
  var CREDENTIAL_KEY = 'servicespec-console-credential:' + location.pathname;
  var schemeSel = $('scheme'), credFields = $('credential-fields'), credStatus = $('credential-status');
  var utf8b64 = function (s) { var bytes = new TextEncoder().encode(s), bin = ''; bytes.forEach(function (b) { bin += String.fromCharCode(b); }); return btoa(bin); };
  var field = function (name, label, type) {
    var l = el('label'), i = el('input');
    l.appendChild(el('span', '', label));
    i.id = 'cred-' + name; i.type = type; i.autocomplete = 'off'; i.spellcheck = false;
    l.appendChild(i);
    credFields.appendChild(l);
    return i;
  };
  var value = function (name) { var i = $('cred-' + name); return i ? i.value.trim() : ''; };
  var scheme = function () { return schemeSel ? data.schemes.find(function (s) { return s.name === schemeSel.value; }) : undefined; };
  var showFields = function () {
    credFields.textContent = '';
    if (credStatus) credStatus.textContent = '';
    var s = scheme();
    if (!s) return;
    if (s.type === 'api_key') field('key', (s.credentialName || 'key') + ' (' + (s.in || 'header') + ')' + (s.prefix ? ', starts ' + s.prefix : ''), 'password');
    else if (s.type === 'bearer') field('token', 'bearer token', 'password');
    else if (s.type === 'basic') { field('user', 'user', 'text'); field('password', 'password', 'password'); }
    else if (s.type === 'oauth2_client_credentials') {
      field('client_id', 'client id', 'text'); field('client_secret', 'client secret', 'password'); field('scope', 'scopes (optional)', 'text');
      var b = el('button', '', 'Get token'); b.type = 'button'; b.id = 'cred-fetch'; credFields.appendChild(b);
      field('token', 'access token', 'password');
      b.addEventListener('click', fetchToken);
    }
  };
  if (schemeSel) {
    schemeSel.appendChild(el('option', '', '(none)')).value = '';
    data.schemes.forEach(function (s) { var o = el('option', '', s.name + ' — ' + s.type.replace(/_/g, ' ')); o.value = s.name; schemeSel.appendChild(o); });
    var firstUsable = data.schemes[0];
    if (firstUsable) schemeSel.value = firstUsable.name;
    schemeSel.addEventListener('change', function () { showFields(); saveCredential(); });
    showFields();
    restoreCredential();
    credFields.addEventListener('input', saveCredential);
    $('credential-forget').addEventListener('click', function () {
      try { sessionStorage.removeItem(CREDENTIAL_KEY); } catch (e) { /* storage refused: nothing was kept */ }
      showFields();
      credStatus.textContent = 'forgotten';
    });
  }
  // The pasted credential is kept for this tab's session only (sessionStorage): it survives a reload, not the tab.
  function saveCredential() {
    var kept = { scheme: schemeSel.value, values: {} };
    Array.prototype.forEach.call(credFields.querySelectorAll('input'), function (i) { if (i.value) kept.values[i.id] = i.value; });
    try { sessionStorage.setItem(CREDENTIAL_KEY, JSON.stringify(kept)); } catch (e) { /* storage refused: kept in the page only */ }
  }
  function restoreCredential() {
    var kept;
    try { kept = JSON.parse(sessionStorage.getItem(CREDENTIAL_KEY) || 'null'); } catch (e) { kept = null; }
    if (!kept || !data.schemes.some(function (x) { return x.name === kept.scheme; }) && kept.scheme !== '') return;
    schemeSel.value = kept.scheme;
    showFields();
    Object.keys(kept.values || {}).forEach(function (id) { var i = $(id); if (i) i.value = kept.values[id]; });
    if (Object.keys(kept.values || {}).length > 0) credStatus.textContent = 'kept from this tab\'s session';
  }
  var clientBasic = function () { return 'Basic ' + utf8b64(encodeURIComponent(value('client_id')) + ':' + encodeURIComponent(value('client_secret'))); };
  function fetchToken() {
    var s = scheme();
    if (!s || !s.tokenPath) { credStatus.textContent = 'this scheme names no token path'; return; }
    if (!base()) { credStatus.textContent = 'type a base URL first'; return; }
    var body = 'grant_type=client_credentials' + (value('scope') ? '&scope=' + encodeURIComponent(value('scope')) : '');
    credStatus.textContent = 'fetching a token…';
    fetch(base() + s.tokenPath, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: clientBasic() }, body: body, credentials: 'omit' })
      .then(function (res) { return res.text().then(function (t) { return { res: res, text: t }; }); })
      .then(function (r) {
        var j; try { j = JSON.parse(r.text); } catch (e) { j = undefined; }
        if (r.res.ok && j && j.access_token) { $('cred-token').value = j.access_token; saveCredential(); credStatus.textContent = 'token fetched' + (j.expires_in ? ', expires in ' + j.expires_in + ' s' : ''); }
        else credStatus.textContent = 'HTTP ' + r.res.status + ': ' + r.text.slice(0, 300);
      }, function (err) { credStatus.textContent = 'could not reach the token endpoint: ' + err.message; });
  }
  /** Adds the pasted credential to headers, or to the query for an API key sent there. */
  var authorize = function (headers, query) {
    var s = scheme();
    if (!s) return;
    if (s.type === 'api_key') { if (!value('key')) return; if (s.in === 'query') query.set(s.credentialName, value('key')); else headers[s.credentialName] = value('key'); }
    else if (s.type === 'bearer' || s.type === 'oauth2_client_credentials') { if (value('token')) headers.authorization = 'Bearer ' + value('token'); }
    else if (s.type === 'basic') { if (value('user') || value('password')) headers.authorization = 'Basic ' + utf8b64(value('user') + ':' + value('password')); }
  };

  // ---- Try it -------------------------------------------------------------------------------------------------
  var show = function (box, status, ok, headers, body) {
    box.textContent = '';
    box.appendChild(el('div', 'status ' + (ok ? 'ok' : 'bad'), status));
    if (headers) box.appendChild(el('pre', 'headers', headers));
    if (body !== undefined && body !== '') box.appendChild(el('pre', 'response-body', body));
  };
  Array.prototype.forEach.call(document.querySelectorAll('form.try'), function (form) {
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var route = data.routes[Number(form.getAttribute('data-route'))], box = form.querySelector('.result');
      if (!base()) { show(box, 'type a base URL at the top first', false); return; }
      var path = route.path, missing = [];
      route.pathParams.forEach(function (p) {
        var v = form.elements['path:' + p].value.trim();
        if (v === '') missing.push(p);
        path = path.replace('{' + p + '}', encodeURIComponent(v));
      });
      if (missing.length > 0) { show(box, 'fill in ' + missing.join(', '), false); return; }
      var query = new URLSearchParams(), headers = {};
      route.query.forEach(function (q) { var v = form.elements['query:' + q].value.trim(); if (v !== '') query.append(q, v); });
      Array.prototype.forEach.call(form.querySelectorAll('input[name^="header:"]'), function (i) { if (i.value.trim() !== '') headers[i.name.slice(7)] = i.value.trim(); });
      if (route.kind === 'token') { if (value('client_id')) headers.authorization = clientBasic(); }
      else authorize(headers, query);
      var init = { method: route.method, headers: headers, credentials: 'omit' };
      if (route.hasBody) { init.body = form.elements.body.value; headers['content-type'] = route.contentType; }
      var qs = query.toString();
      show(box, 'sending ' + route.method + ' ' + path + '…', true);
      fetch(base() + path + (qs ? '?' + qs : ''), init).then(function (res) {
        return res.text().then(function (text) {
          var pretty = text;
          try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as sent */ }
          var keep = ['content-type', 'location', 'ratelimit', 'ratelimit-policy', 'retry-after', 'www-authenticate', 'allow', 'deprecation', 'sunset'];
          var lines = [];
          res.headers.forEach(function (v, k) { if (keep.indexOf(k) >= 0 || /version/i.test(k)) lines.push(k + ': ' + v); });
          show(box, 'HTTP ' + res.status + (res.statusText ? ' ' + res.statusText : ''), res.ok, lines.join('\n'), pretty);
        });
      }, function (err) { show(box, 'no answer: ' + err.message, false); });
    });
  });

  // ---- Narrow layout: the contents behind a button ------------------------------------------------------------
  var navToggle = $('nav-toggle');
  var setNav = function (open) { document.body.classList.toggle('nav-open', open); navToggle.setAttribute('aria-expanded', String(open)); };
  navToggle.addEventListener('click', function () { setNav(!document.body.classList.contains('nav-open')); });
  $('toc').addEventListener('click', function (ev) { if (ev.target.closest('a')) setNav(false); });
  results.addEventListener('click', function (ev) { if (ev.target.closest('a')) setNav(false); });

  // ---- Deep links ---------------------------------------------------------------------------------------------
  // Every route (#op-ID), its error examples (#op-ID-error-CODE) and every part and resource heading has a stable
  // id. Loading the page with one, or following one, opens the closed <details> holding it and scrolls to it.
  var openTarget = function (ev) {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var p = target.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    if (target.tagName === 'DETAILS') target.open = true;
    // A route loaded by its link opens its try-it; following a link inside the page leaves it as it was.
    if (!ev && target.classList.contains('route')) { var t = target.querySelector('details.try-it'); if (t) t.open = true; }
    setNav(false);
    target.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', openTarget);
  if (location.hash) openTarget(undefined);

  // ---- Prefilled identifiers from the service ------------------------------------------------------------------
  // A made-up identifier answers 404 or 422: when a try-it form opens, each identifier it sends (a reference field
  // of the body, the path parameter naming the object) is taken from the first object the service lists.
  Array.prototype.forEach.call(document.querySelectorAll('form.try'), function (form) {
    var route = data.routes[Number(form.getAttribute('data-route'))];
    if (!route.fills) return;
    var details = form.closest('details'), note = form.querySelector('.prefill');
    details.addEventListener('toggle', function () { if (details.open) fillFromService(form, route, note); });
  });
  // A named example picked from the spec's replaces the body, and the identifiers are taken from the service again.
  Array.prototype.forEach.call(document.querySelectorAll('form.try select[name="example"]'), function (sel) {
    var form = sel.form, route = data.routes[Number(form.getAttribute('data-route'))];
    sel.addEventListener('change', function () {
      form.elements.body.value = sel.value;
      if (route.fills) fillFromService(form, route, form.querySelector('.prefill'));
    });
  });
  function fillFromService(form, route, note) {
    if (!base()) return;
    var said = [];
    var one = function (f) {
      var query = new URLSearchParams(), headers = { accept: 'application/json' };
      authorize(headers, query);
      var qs = query.toString();
      return fetch(base() + f.list + (qs ? '?' + qs : ''), { headers: headers, credentials: 'omit' }).then(function (res) {
        return res.json().then(function (body) {
          var label = f.target === 'path' ? f.at[0] : f.at.join('.');
          if (!res.ok) { said.push(label + ': GET ' + f.list + ' answered ' + res.status + (res.status === 401 || res.status === 403 ? ' (paste a credential above, then reopen)' : '')); return; }
          var list = f.items ? body && body[f.items] : body;
          var first = Array.isArray(list) ? list[0] : undefined;
          // A nested bound field (metadata.name) is read through its objects; a field named with dots as it is.
          var id = !first ? undefined : first[f.id] !== undefined ? first[f.id] : f.id.split('.').reduce(function (x, k) { return x == null ? undefined : x[k]; }, first);
          if (id === undefined || id === null) { said.push(label + ': no ' + f.resource + ' yet' + (f.create ? ' (create one with ' + f.create + ' first)' : '')); return; }
          if (f.target === 'path') { var input = form.elements['path:' + f.at[0]]; if (input && input.value.trim() === '') input.value = id; }
          else {
            var area = form.elements.body, json;
            try { json = JSON.parse(area.value); } catch (e) { return; }
            var node = json;
            for (var i = 0; i < f.at.length - 1 && node; i++) node = node[f.at[i]];
            if (!node || typeof node !== 'object') return;
            node[f.at[f.at.length - 1]] = id;
            area.value = JSON.stringify(json, null, 2);
          }
          said.push(label + ': ' + id + ' (the first ' + f.resource + ' the service lists)');
        });
      }).catch(function (err) { said.push('could not list ' + f.resource + ': ' + err.message); });
    };
    Promise.all(route.fills.map(one)).then(function () { if (note) note.textContent = said.join('; '); form.setAttribute('data-filled', 'true'); });
  }

  // ---- Event viewer -------------------------------------------------------------------------------------------
  // EventSource cannot send a credential header, so the stream is read with fetch and parsed here.
  var start = $('viewer-start'), stop = $('viewer-stop'), log = $('viewer-log'), vStatus = $('viewer-status');
  if (start && data.stream) {
    var controller;
    var entry = function (ev) {
      var li = el('li');
      var head = el('div');
      head.appendChild(el('strong', 'event-kind', ev.event || 'message'));
      if (ev.id) head.appendChild(el('span', 'muted', '  id ' + ev.id));
      li.appendChild(head);
      var text = ev.data;
      try { text = JSON.stringify(JSON.parse(ev.data), null, 2); } catch (e) { /* not JSON */ }
      li.appendChild(el('pre', '', text));
      log.insertBefore(li, log.firstChild);
    };
    var parse = function (block) {
      var ev = { data: '' }, lines = block.split(/\r?\n/), seen = false;
      lines.forEach(function (line) {
        if (line === '' || line[0] === ':') return;
        var i = line.indexOf(':'), name = i < 0 ? line : line.slice(0, i), v = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (name === 'data') { ev.data += (ev.data ? '\n' : '') + v; seen = true; }
        else if (name === 'event' || name === 'id') { ev[name] = v; seen = true; }
      });
      if (seen) entry(ev);
    };
    start.addEventListener('click', function () {
      if (!base()) { vStatus.textContent = 'type a base URL at the top first'; return; }
      var query = new URLSearchParams(), headers = { accept: 'text/event-stream' };
      var kinds = $('viewer-kinds').value.trim();
      if (kinds) query.set('kinds', kinds);
      authorize(headers, query);
      controller = new AbortController();
      start.disabled = true; stop.disabled = false; vStatus.textContent = 'connecting…';
      var qs = query.toString();
      fetch(base() + data.stream.path + (qs ? '?' + qs : ''), { headers: headers, signal: controller.signal, credentials: 'omit' }).then(function (res) {
        if (!res.ok || !res.body) {
          return res.text().then(function (t) { vStatus.textContent = 'HTTP ' + res.status; entry({ event: 'HTTP ' + res.status, data: t }); start.disabled = false; stop.disabled = true; });
        }
        vStatus.textContent = 'connected';
        var reader = res.body.getReader(), decoder = new TextDecoder(), buffer = '';
        var pump = function () {
          return reader.read().then(function (r) {
            if (r.done) { vStatus.textContent = 'the stream ended'; start.disabled = false; stop.disabled = true; return; }
            buffer += decoder.decode(r.value, { stream: true });
            var parts = buffer.split(/\r?\n\r?\n/);
            buffer = parts.pop();
            parts.forEach(parse);
            return pump();
          });
        };
        return pump();
      }).catch(function (err) {
        vStatus.textContent = err.name === 'AbortError' ? 'disconnected' : 'no answer: ' + err.message;
        start.disabled = false; stop.disabled = true;
      });
    });
    stop.addEventListener('click', function () { if (controller) controller.abort(); });
  }
})();
`.trim();
