/* Catalyzer plan debugger: the page catalyzerd serves at GET /.
 *
 * It talks only to the daemon that served it (the JSON endpoint, same
 * origin): /v1/drop-session, /v1/execute and /v1/register-catalog set the
 * session up, /v1/analyze with parseOnly gives the unresolved plan, and
 * /v1/analyze streamed as NDJSON gives one trace event per rule application
 * as it happens, then the result. Everything the page shows can be rebuilt
 * from its state, which lives in the URL fragment: a link reproduces a
 * debugging session. No dependencies, no inline script or style (the CSP
 * forbids both). */
'use strict';

(function () {
  // ------------------------------------------------------------ helpers

  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function fmtUs(ns) {
    const us = ns / 1000;
    return us >= 1000 ? (us / 1000).toFixed(2) + ' ms' : us.toFixed(us < 10 ? 2 : 1) + ' µs';
  }

  function setStatus(text, bad) {
    const s = $('status');
    s.textContent = text;
    s.className = bad ? 'bad' : '';
  }

  // Expression ids in plan text: name#12 (L for bigint). The name part is
  // what an identifier looks like; ids of 0 are unassigned (unresolved aliases).
  // A CTE reference points at its definition by the CTE's id instead:
  // "CTERelationRef 2" → "CTERelationDef 2" (hover key "cte2").
  const ID_RE = /([A-Za-z_][\w$]*)?#(\d+)L?|CTERelation(Def|Ref) (\d+)/g;

  // Plan text → DOM: every expression id a hoverable span. defs: ids this
  // line defines (an `AS x#id` is always a definition).
  function planText(text, defs) {
    const frag = document.createDocumentFragment();
    let last = 0;
    ID_RE.lastIndex = 0;
    for (let m; (m = ID_RE.exec(text));) {
      if (m[2] === '0') continue;
      if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      const s = el('span', 'id', m[0]);
      s.dataset.id = m[2] || 'cte' + m[4];
      if (m[3] === 'Def' || (m[2] && ((defs && defs.has(m[2])) || /\bAS $/.test(text.slice(Math.max(0, m.index - 3), m.index))))) s.classList.add('def');
      frag.appendChild(s);
      last = m.index + m[0].length;
    }
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  // ------------------------------------------------------------ SQL scripts

  // Splits a script on ';' outside quotes and comments, as the daemon does;
  // returns [{text, start}] with each statement trimmed.
  function splitStatements(src) {
    const out = [];
    let start = 0, i = 0;
    const n = src.length;
    const push = (end) => {
      const raw = src.slice(start, end);
      const lead = raw.length - raw.trimStart().length;
      const text = raw.trim();
      if (text && !/^(--[^\n]*\n?|\s|\/\*[\s\S]*?\*\/)*$/.test(text)) out.push({ text, start: start + lead });
    };
    while (i < n) {
      const c = src[i];
      if (c === "'" || c === '"' || c === '`') {
        i++;
        while (i < n && src[i] !== c) i += src[i] === '\\' && c !== '`' ? 2 : 1;
        i++;
      } else if (c === '-' && src[i + 1] === '-') {
        while (i < n && src[i] !== '\n') i++;
      } else if (c === '/' && src[i + 1] === '*') {
        let depth = 1;
        i += 2;
        while (i < n && depth) {
          if (src[i] === '/' && src[i + 1] === '*') { depth++; i += 2; } else if (src[i] === '*' && src[i + 1] === '/') { depth--; i += 2; } else i++;
        }
      } else if (c === ';') {
        push(i);
        start = ++i;
      } else i++;
    }
    push(n);
    return out;
  }

  // ------------------------------------------------------------ page state ↔ URL fragment

  const DEFAULTS = { mode: 'sql', sql: '', plan: '', catalog: '', conf: '', session: '', fresh: true, level: 'all', sel: null, toggled: [] };
  let state = Object.assign({}, DEFAULTS);

  function b64url(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function unb64url(s) {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  async function pipe(bytes, stream) {
    const res = new Response(new Blob([bytes]).stream().pipeThrough(stream));
    return new Uint8Array(await res.arrayBuffer());
  }

  // "z." + deflate-raw (when the browser has CompressionStream), else "j.".
  async function encodeState(st) {
    const bytes = new TextEncoder().encode(JSON.stringify(st));
    if (typeof CompressionStream === 'function') return 'z.' + b64url(await pipe(bytes, new CompressionStream('deflate-raw')));
    return 'j.' + b64url(bytes);
  }

  async function decodeState(frag) {
    let bytes;
    if (frag.startsWith('z.')) {
      if (typeof DecompressionStream !== 'function') throw new Error('this browser cannot read compressed links');
      bytes = await pipe(unb64url(frag.slice(2)), new DecompressionStream('deflate-raw'));
    } else if (frag.startsWith('j.')) {
      bytes = unb64url(frag.slice(2));
    } else throw new Error('not a debugger link');
    const st = JSON.parse(new TextDecoder().decode(bytes));
    if (!st || typeof st !== 'object') throw new Error('not a debugger link');
    return Object.assign({}, DEFAULTS, st);
  }

  let lastFragment = '';
  let fragmentTimer = 0;

  // Writes the state into the URL (replaceState: no history entry per click).
  function saveState() {
    clearTimeout(fragmentTimer);
    fragmentTimer = setTimeout(async () => {
      const frag = await encodeState(state);
      lastFragment = frag;
      history.replaceState(null, '', '#' + frag);
      $('link').href = '#' + frag;
    }, 0);
  }

  function readInputs() {
    state.sql = $('sql').value;
    state.plan = $('plan').value;
    state.catalog = $('catalog').value;
    state.conf = $('conf').value;
    state.session = $('session').value.trim();
    state.fresh = $('fresh').checked;
    state.level = $('level').value;
  }

  function writeInputs() {
    $('sql').value = state.sql;
    $('plan').value = state.plan;
    $('catalog').value = state.catalog;
    $('conf').value = state.conf;
    $('session').value = state.session;
    $('fresh').checked = !!state.fresh;
    $('level').value = state.level === 'effective' ? 'effective' : 'all';
    setMode(state.mode === 'plan' ? 'plan' : 'sql');
    renderCatalog();
  }

  const EXAMPLE_PLAN = {
    project: {
      input: { read: { namedTable: { unparsedIdentifier: 'employee' } } },
      expressions: [
        { unresolvedAttribute: { unparsedIdentifier: 'dept' } },
        { alias: { expr: { unresolvedFunction: { functionName: '+', arguments: [
          { unresolvedAttribute: { unparsedIdentifier: 'salary' } }, { unresolvedAttribute: { unparsedIdentifier: 'bonus' } }] } },
        name: ['pay'] } },
      ],
    },
  };

  function setMode(mode) {
    state.mode = mode;
    if (mode === 'plan' && !$('plan').value.trim()) $('plan').value = JSON.stringify(EXAMPLE_PLAN, null, 1);
    for (const t of document.querySelectorAll('.tab')) t.classList.toggle('on', t.dataset.mode === mode);
    $('sql').hidden = mode !== 'sql';
    $('plan').hidden = mode !== 'plan';
    $('input-hint').textContent = mode === 'sql'
      ? 'Statements before the last run first (in the session); the last one is analysed.'
      : 'An unresolved plan: a Relation in protobuf JSON (catalyzer.v1, Spark Connect vocabulary).';
  }

  // ------------------------------------------------------------ catalog and conf inputs

  // The catalog panel's JSON (a Catalog message), or null when empty.
  function parseCatalog() {
    const text = $('catalog').value.trim();
    if (!text) return null;
    const cat = JSON.parse(text);
    if (!cat || typeof cat !== 'object' || Array.isArray(cat)) throw new Error('the catalog is a JSON object: {"tables": [...], "views": [...], "functions": [...]}');
    return cat;
  }

  function renderCatalog() {
    const view = $('catalog-view');
    view.textContent = '';
    let cat;
    try {
      cat = parseCatalog();
    } catch (e) {
      view.appendChild(el('div', 'bad', 'catalog: ' + e.message));
      $('catalog-count').textContent = '';
      return;
    }
    const tables = (cat && cat.tables) || [], views = (cat && cat.views) || [], funcs = (cat && cat.functions) || [];
    $('catalog-count').textContent = cat ? '(' + tables.length + ' tables, ' + views.length + ' views, ' + funcs.length + ' functions)' : '(empty)';
    for (const t of tables) {
      const d = el('div');
      d.appendChild(el('b', null, 'table ' + t.name));
      d.appendChild(document.createTextNode(' (' + (t.columns || []).map((c) => c.name + ' ' + c.type + (c.notNull || c.not_null ? ' not null' : '')).join(', ') + ')'));
      view.appendChild(d);
    }
    for (const v of views) {
      const d = el('div');
      d.appendChild(el('b', null, 'view ' + v.name));
      d.appendChild(document.createTextNode(' AS ' + v.query));
      view.appendChild(d);
    }
    for (const f of funcs) {
      const d = el('div');
      d.appendChild(el('b', null, 'function ' + f.name));
      d.appendChild(document.createTextNode('(' + (f.argumentTypes || f.argument_types || []).join(', ') + ') → ' + (f.resultType || f.result_type || '')));
      view.appendChild(d);
    }
  }

  function parseConf() {
    const conf = {};
    for (const line of $('conf').value.split('\n')) {
      const t = line.trim();
      if (!t || t.startsWith('#')) continue;
      const eq = t.indexOf('=');
      if (eq <= 0) throw new Error('conf: "' + t + '" is not key=value');
      conf[t.slice(0, eq).trim()] = t.slice(eq + 1).trim();
    }
    return conf;
  }

  // ------------------------------------------------------------ the daemon's JSON endpoint

  let aborter = null; // the current run's requests; a new run cancels them

  async function call(path, body) {
    const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      signal: aborter && aborter.signal });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(path + ': ' + ((json && json.message) || res.status + ' ' + res.statusText));
    return json;
  }

  // POST /v1/analyze as NDJSON: onLine for each parsed line as it arrives.
  async function stream(path, body, onLine) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
      signal: aborter && aborter.signal,
    });
    if (!res.ok) {
      const json = await res.json().catch(() => null);
      throw new Error(path + ': ' + ((json && json.message) || res.status + ' ' + res.statusText));
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) onLine(JSON.parse(line));
      }
      if (done) break;
    }
    if (buf.trim()) onLine(JSON.parse(buf));
  }

  // ------------------------------------------------------------ plan trees

  // A tree node: {text, kids, sub (a subquery's plan), out (attributes or null), defs (ids it defines)}.

  // Parses a Spark tree string: each line is "prefix text", the prefix made of
  // 3-character units ("   ", ":  ", "+- ", ":- "). A line's parent is the
  // nearest earlier line that is less deep; two units deeper means a
  // subquery plan (Spark prints inner children at depth + 2).
  function parseTreeString(s) {
    const roots = [];
    const stack = []; // [{depth, node}]
    for (const line of (s || '').split('\n')) {
      if (!line.trim()) continue;
      let depth = 0, i = 0;
      while (i + 3 <= line.length && /^(   |:  |\+- |:- )$/.test(line.slice(i, i + 3))) {
        i += 3;
        depth++;
      }
      const node = { text: line.slice(i), kids: [], sub: false, out: null, defs: null };
      while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
      if (!stack.length) roots.push(node);
      else {
        const parent = stack[stack.length - 1];
        node.sub = depth - parent.depth >= 2;
        parent.node.kids.push(node);
      }
      stack.push({ depth, node });
    }
    return roots;
  }

  // The structured analysed plan (ResolvedPlan with planDetails) → tree.
  function planModel(p) {
    const kids = [];
    const subs = (e) => {
      if (!e) return;
      if (e.subquery) kids.push(Object.assign(planModel(e.subquery), { sub: true }));
      for (const c of e.children || []) subs(c);
    };
    for (const e of p.expressions || []) subs(e);
    const regular = (p.children || []).map(planModel);
    const out = (p.output || []).map((a) => ({ name: a.name, id: String(a.exprId || '0'), type: (a.type && a.type.catalogString) || '?', nullable: !!a.nullable }));
    const below = new Set();
    for (const k of regular) for (const a of k.out || []) below.add(a.id);
    const defs = new Set(out.map((a) => a.id).filter((id) => id !== '0' && !below.has(id)));
    return { text: p.description || p.kind, kids: kids.concat(regular), sub: false, out, defs };
  }

  // A Connect plan in JSON (Relation) → tree: the relation type and its
  // scalar fields on the line, nested relations as children.
  function relationModel(rel) {
    const kind = Object.keys(rel).find((k) => k !== 'common' && rel[k] && typeof rel[k] === 'object');
    const body = kind ? rel[kind] : {};
    const kids = [];
    const rest = {};
    const isRel = (v) => v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => k !== 'common' && REL_KINDS.has(k));
    for (const [k, v] of Object.entries(body || {})) {
      if (isRel(v)) kids.push(relationModel(v));
      else rest[k] = v;
    }
    let detail = JSON.stringify(rest);
    if (detail.length > 240) detail = detail.slice(0, 240) + '…';
    return { text: (kind || 'Relation') + (detail !== '{}' ? ' ' + detail : ''), kids, sub: false, out: null, defs: null };
  }
  const REL_KINDS = new Set(['read', 'project', 'filter', 'aggregate', 'sort', 'limit', 'offset', 'join', 'setOp', 'set_op',
    'subqueryAlias', 'subquery_alias', 'range', 'deduplicate', 'oneRow', 'one_row', 'localRelation', 'local_relation', 'sql',
    'withColumns', 'with_columns', 'toDf', 'to_df', 'drop', 'tail', 'sample', 'hint', 'unpivot', 'withColumnsRenamed']);

  const OPEN_DEPTH = 8; // deeper nodes start collapsed

  // Renders roots into container; tree is 'u' or 'a' (for the toggles kept in the state).
  function renderTree(container, roots, tree) {
    container.textContent = '';
    if (!roots.length) {
      container.appendChild(el('div', 'empty', 'no plan'));
      return;
    }
    const toggled = new Set(state.toggled.filter((t) => t.startsWith(tree + ':')).map((t) => t.slice(2)));
    const build = (node, path, depth) => {
      const n = el('div', 'n' + (node.sub ? ' sub' : ''));
      n.dataset.path = path;
      n.dataset.tree = tree;
      const row = el('div', 'row');
      const tog = el('span', 'tog' + (node.kids.length ? '' : ' leaf'), node.kids.length ? '▾' : '·');
      row.appendChild(tog);
      const txt = el('span', 'txt');
      txt.appendChild(planText(node.text, node.defs));
      row.appendChild(txt);
      n.appendChild(row);
      if (node.defs && node.defs.size) n.dataset.defs = ' ' + Array.from(node.defs).join(' ') + ' ';
      if (node.out && node.out.length) { // the node's output, on its line
        const out = el('span', 'out');
        out.title = 'output attributes';
        out.appendChild(document.createTextNode('→ '));
        node.out.forEach((a, i) => {
          if (i) out.appendChild(document.createTextNode(', '));
          out.appendChild(planText(a.name + '#' + a.id, node.defs));
          out.appendChild(el('span', 'ty', ' ' + a.type + (a.nullable ? '' : ' not null')));
        });
        row.appendChild(out);
      }
      if (node.kids.length) {
        const kids = el('div', 'kids');
        node.kids.forEach((k, i) => kids.appendChild(build(k, path + '.' + i, depth + 1)));
        n.appendChild(kids);
        const closedByDefault = depth >= OPEN_DEPTH;
        if (closedByDefault !== toggled.has(path)) {
          n.classList.add('closed');
          tog.textContent = '▸';
        }
      }
      return n;
    };
    roots.forEach((r, i) => container.appendChild(build(r, String(i), 0)));
  }

  function onTreeClick(ev) {
    const tog = ev.target.closest('.tog');
    if (!tog || tog.classList.contains('leaf')) return;
    const n = tog.closest('.n');
    const closed = n.classList.toggle('closed');
    tog.textContent = closed ? '▸' : '▾';
    const depth = n.dataset.path.split('.').length - 1;
    const key = n.dataset.tree + ':' + n.dataset.path;
    const differs = closed !== depth >= OPEN_DEPTH;
    state.toggled = state.toggled.filter((t) => t !== key);
    if (differs) state.toggled.push(key);
    saveState();
  }

  // Hovering an expression id highlights every place it occurs; where it is
  // defined (an Alias, or the node whose output first has it) stands out.
  let hovered = null;
  function onHover(ev) {
    const span = ev.target.closest && ev.target.closest('.id');
    const id = span ? span.dataset.id : null;
    if (id === hovered) return;
    for (const e of document.querySelectorAll('.id.hl')) e.classList.remove('hl');
    for (const e of document.querySelectorAll('.n.defn')) e.classList.remove('defn');
    hovered = id;
    if (!id) return;
    for (const e of document.querySelectorAll('.id[data-id="' + id + '"]')) e.classList.add('hl');
    for (const e of document.querySelectorAll('.n[data-defs*=" ' + id + ' "]')) e.classList.add('defn');
  }

  // ------------------------------------------------------------ the rule timeline

  // Events as they stream in; lanes are analyses: the query (scope 0) and
  // each nested analysis (a view, a CTE definition, a subquery) below its parent.
  let run = null; // the current run's data

  function newRun() {
    return {
      events: [], lanes: new Map(), laneOrder: [], cursor: [0], batches: new Map(), total: 0,
      pending: [], frame: 0, parsed: '', scale: 0, selected: null, result: null,
    };
  }

  // A lane per analysis. A nested analysis' events come before those of
  // the rule that ran it, so a lane can appear before its parent's: the
  // parent gets a lane at once (named from the scope path) and takes its
  // place in the order when its own events come.
  function laneFor(r, ev) {
    let lane = r.lanes.get(ev.scopeId);
    if (lane && !lane.placeholder) return lane;
    if (!lane) lane = makeLane(r, ev.scopeId, ev.depth, ev.scope);
    lane.placeholder = false;
    lane.parent = ev.scopeId ? ev.parentScopeId : null;
    if (ev.scopeId && !r.lanes.has(ev.parentScopeId)) {
      const up = makeLane(r, ev.parentScopeId, ev.depth - 1, ev.scope.split('/').slice(0, -1).join('/'));
      up.placeholder = true;
      up.parent = ev.depth - 1 === 1 ? 0 : null; // known once its own events come
    }
    orderLanes(r);
    return lane;
  }

  function makeLane(r, id, depth, scope) {
    const lane = { id, parent: null, depth, boxes: [], bands: [], lastBox: null, lastBand: null, placeholder: false };
    const name = el('div', 'name', id ? scopeLabel(scope) : 'query');
    name.title = scope || 'the query';
    name.style.paddingLeft = 6 + 12 * depth + 'px';
    lane.body = el('div', 'body');
    lane.row = el('div', 'lane');
    lane.row.appendChild(name);
    lane.row.appendChild(lane.body);
    r.lanes.set(id, lane);
    return lane;
  }

  // Lanes in tree order: each analysis under the one that ran it, siblings
  // in the order they started; lanes whose parent is not known yet last.
  function orderLanes(r) {
    const kids = new Map();
    for (const l of r.lanes.values()) {
      if (l.parent == null) continue;
      if (!kids.has(l.parent)) kids.set(l.parent, []);
      kids.get(l.parent).push(l);
    }
    const order = [];
    const seen = new Set();
    const visit = (l) => {
      if (seen.has(l)) return;
      seen.add(l);
      order.push(l);
      for (const k of (kids.get(l.id) || []).sort((a, b) => a.id - b.id)) visit(k);
    };
    const roots = Array.from(r.lanes.values()).filter((l) => l.parent == null).sort((a, b) => a.id - b.id);
    for (const l of roots) visit(l);
    const tl = $('timeline');
    order.forEach((l, i) => {
      if (tl.children[i] !== l.row) tl.insertBefore(l.row, tl.children[i] || null);
    });
    r.laneOrder = order;
  }

  function scopeLabel(scope) {
    const parts = (scope || '').split('/');
    return parts[parts.length - 1] || scope;
  }

  function batchClass(r, batch) {
    if (!r.batches.has(batch)) r.batches.set(batch, 'b' + (r.batches.size % 8));
    return r.batches.get(batch);
  }

  function normEvent(raw, index) {
    return {
      seq: raw.sequence != null ? Number(raw.sequence) : index,
      batch: raw.batch || '', rule: raw.rule || '', iteration: raw.iteration || 0, effective: !!raw.effective,
      ns: Number(raw.durationNanos || 0), plan: raw.planAfter || '', before: raw.planBefore || '', kinds: raw.changedKinds || '',
      depth: raw.depth || 0, scope: raw.scope || '', scopeId: Number(raw.scopeId || 0), parentScopeId: Number(raw.parentScopeId || 0),
    };
  }

  // Places an event: its start is the end of the previous event at its depth;
  // an event ends the open nested analyses below it (they ran inside it).
  function placeEvent(r, ev) {
    const d = ev.depth;
    while (r.cursor.length <= d) r.cursor.push(r.cursor[r.cursor.length - 1]);
    ev.start = r.cursor[d];
    const end = ev.start + ev.ns;
    r.cursor[d] = end;
    for (let k = d + 1; k < r.cursor.length; k++) r.cursor[k] = end;
    if (d === 0) r.total = end;
    else r.total = Math.max(r.total, end);
  }

  function addEvent(r, ev) {
    placeEvent(r, ev);
    r.events.push(ev);
    const lane = laneFor(r, ev);
    ev.lane = lane;
    // batch × iteration band
    if (!lane.lastBand || lane.lastBand.batch !== ev.batch || lane.lastBand.iteration !== ev.iteration) {
      const b = { batch: ev.batch, iteration: ev.iteration, start: ev.start, end: ev.start + ev.ns };
      b.el = el('div', 'band ' + batchClass(r, ev.batch), ev.batch + ' ' + ev.iteration);
      b.el.title = ev.batch + ', iteration ' + ev.iteration;
      lane.body.appendChild(b.el);
      lane.bands.push(b);
      lane.lastBand = b;
    } else lane.lastBand.end = ev.start + ev.ns;
    // rules without effect fold into one grey box per run
    if (!ev.effective && lane.lastBox && !lane.lastBox.effective) {
      const box = lane.lastBox;
      box.end = ev.start + ev.ns;
      box.events.push(ev);
      box.el.title = box.events.length + ' rule applications without effect, ' + fmtUs(box.end - box.start);
      return;
    }
    const box = { effective: ev.effective, start: ev.start, end: ev.start + ev.ns, events: [ev] };
    box.el = el('div', 'ev ' + (ev.effective ? 'eff' : 'idle'));
    box.el.dataset.seq = ev.seq;
    box.el.title = ev.effective
      ? ev.rule + ' — ' + ev.batch + ' iteration ' + ev.iteration + ', ' + fmtUs(ev.ns) + (ev.kinds ? ', changed ' + ev.kinds : '')
      : '1 rule application without effect';
    lane.body.appendChild(box.el);
    lane.boxes.push(box);
    lane.lastBox = box;
    if (ev.effective) ev.box = box;
  }

  function layoutTimeline(r) {
    const scale = r.scale; // px per ns
    const width = Math.max(200, Math.ceil(r.total * scale) + 20);
    for (const lane of r.laneOrder) {
      lane.body.style.width = width + 'px';
      for (const b of lane.bands) {
        b.el.style.left = b.start * scale + 'px';
        b.el.style.width = Math.max(1, (b.end - b.start) * scale) + 'px';
      }
      for (const b of lane.boxes) {
        b.el.style.left = b.start * scale + 'px';
        b.el.style.width = Math.max(1, (b.end - b.start) * scale) + 'px';
      }
    }
  }

  function fitScale(r) {
    const avail = Math.max(300, $('timeline').clientWidth - 210);
    r.scale = r.total > 0 ? avail / r.total : 1e-3;
  }

  function zoom(f) {
    if (!run) return;
    if (f === 0) fitScale(run);
    else run.scale *= f;
    layoutTimeline(run);
  }

  // Streamed events are drawn once per animation frame.
  function queueEvent(r, raw) {
    r.pending.push(raw);
    if (!r.frame) r.frame = requestAnimationFrame(() => flushEvents(r));
  }

  function flushEvents(r) {
    r.frame = 0;
    if (r !== run) return;
    for (const raw of r.pending) addEvent(r, normEvent(raw, r.events.length));
    r.pending = [];
    if (!r.scale) fitScale(r);
    if (r.total * r.scale > $('timeline').clientWidth * 4) fitScale(r);
    layoutTimeline(r);
    renderSummary(r);
    setStatus('analysing… ' + r.events.length + ' rule applications');
  }

  function renderSummary(r) {
    const eff = r.events.filter((e) => e.effective).length;
    const nested = r.lanes.size - (r.lanes.has(0) ? 1 : 0);
    $('tl-summary').textContent = r.events.length + ' rule applications, ' + eff + ' effective, ' + fmtUs(r.total) +
      (nested ? ', ' + nested + ' nested analyses' : '');
  }

  // Nested analyses run inside a rule application and their events come
  // before it: list each rule application, then what ran inside it (the
  // events one level deeper since the previous event at its level).
  function displayOrder(events) {
    const pending = [[]];
    const kids = new Map();
    const orphans = [];
    for (const ev of events) {
      const d = ev.depth;
      while (pending.length < d + 2) pending.push([]);
      for (let k = d + 2; k < pending.length; k++) orphans.push(...pending[k].splice(0));
      const inner = pending[d + 1].splice(0);
      if (inner.length) kids.set(ev, inner);
      ev.nested = inner.length > 0;
      pending[d].push(ev);
    }
    for (let k = 1; k < pending.length; k++) orphans.push(...pending[k]);
    const out = [];
    const visit = (ev) => {
      out.push(ev);
      for (const k of kids.get(ev) || []) visit(k);
    };
    for (const ev of pending[0]) visit(ev);
    for (const ev of orphans) visit(ev);
    return out;
  }

  // The rule list: one row per effective application (every one with the
  // checkbox), nested analyses' rows indented under a row naming them.
  function renderRules(r) {
    const all = $('all-rows').checked;
    const box = $('rules');
    box.textContent = '';
    const table = el('table');
    const head = el('tr');
    for (const h of ['#', 'rule', 'iter', 'changed', 'time']) head.appendChild(el('th', null, h));
    table.appendChild(head);
    let scope = -1;
    for (const ev of displayOrder(r.events)) {
      if (!all && !ev.effective && !ev.nested) continue;
      if (ev.scopeId !== scope) {
        scope = ev.scopeId;
        const tr = el('tr', 'scope');
        const td = el('td', null, scope ? '▸ ' + scopeLabel(ev.scope) : '▸ query');
        td.colSpan = 5;
        td.title = ev.scope || 'the query';
        td.style.paddingLeft = 6 + 12 * ev.depth + 'px';
        tr.appendChild(td);
        table.appendChild(tr);
      }
      const tr = el('tr', 'rule' + (ev.effective ? '' : ' noeff'));
      tr.dataset.seq = ev.seq;
      tr.appendChild(el('td', 'num', String(ev.seq)));
      const rule = el('td');
      rule.style.paddingLeft = 6 + 12 * ev.depth + 'px';
      if (ev.effective) rule.appendChild(el('span', 'mark', '● '));
      rule.appendChild(document.createTextNode(ev.rule));
      rule.title = ev.rule + ' — ' + ev.batch + ', iteration ' + ev.iteration;
      tr.appendChild(rule);
      tr.appendChild(el('td', 'num', String(ev.iteration)));
      const changed = el('td', 'chg', ev.effective ? ev.kinds || '(plan changed)' : '-');
      changed.title = changed.textContent;
      tr.appendChild(changed);
      tr.appendChild(el('td', 'num', fmtUs(ev.ns)));
      table.appendChild(tr);
    }
    box.appendChild(table);
    if (r.selected != null) markSelected(r, r.selected);
  }

  function markSelected(r, seq) {
    for (const e of document.querySelectorAll('.ev.sel, #rules tr.sel')) e.classList.remove('sel');
    for (const e of document.querySelectorAll('.ev[data-seq="' + seq + '"], #rules tr[data-seq="' + seq + '"]')) e.classList.add('sel');
  }

  // ------------------------------------------------------------ plan diff

  // The plan before ev: the previous effective plan of the same analysis, the
  // plan the analyzer sent as its start, or (for the query) the parsed plan.
  function planBefore(r, ev) {
    for (let i = r.events.indexOf(ev) - 1; i >= 0; i--) {
      const p = r.events[i];
      if (p.scopeId === ev.scopeId && p.plan) return p.plan;
      if (p.scopeId === ev.scopeId && p.before) return p.before;
    }
    if (ev.before) return ev.before;
    return ev.scopeId ? '' : r.parsed;
  }

  // Line diff (longest common subsequence after trimming the common ends).
  function diffLines(a, b) {
    let pre = 0, suf = 0;
    while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
    while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
    const A = a.slice(pre, a.length - suf), B = b.slice(pre, b.length - suf);
    const ops = a.slice(0, pre).map((t) => [' ', t]);
    const n = A.length, m = B.length;
    if (n * m > 4e6) {
      for (const t of A) ops.push(['-', t]);
      for (const t of B) ops.push(['+', t]);
    } else {
      const T = new Uint32Array((n + 1) * (m + 1));
      for (let i = n - 1; i >= 0; i--)
        for (let j = m - 1; j >= 0; j--)
          T[i * (m + 1) + j] = A[i] === B[j] ? T[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(T[(i + 1) * (m + 1) + j], T[i * (m + 1) + j + 1]);
      let i = 0, j = 0;
      while (i < n || j < m) {
        if (i < n && j < m && A[i] === B[j]) { ops.push([' ', A[i]]); i++; j++; } else if (i < n && (j === m || T[(i + 1) * (m + 1) + j] >= T[i * (m + 1) + j + 1])) ops.push(['-', A[i++]]);
        else ops.push(['+', B[j++]]);
      }
    }
    for (const t of a.slice(a.length - suf)) ops.push([' ', t]);
    return ops;
  }

  // A run of removed lines followed by as many added ones: each pair is one
  // line changed; op[2] = [common prefix, common suffix] lengths.
  function markChangedParts(ops) {
    for (let k = 0; k < ops.length;) {
      if (ops[k][0] !== '-') { k++; continue; }
      let d = k;
      while (d < ops.length && ops[d][0] === '-') d++;
      let a = d;
      while (a < ops.length && ops[a][0] === '+') a++;
      if (a - d === d - k) {
        for (let i = 0; i < d - k; i++) {
          const x = ops[k + i][1], y = ops[d + i][1];
          let p = 0, q = 0;
          while (p < x.length && p < y.length && x[p] === y[p]) p++;
          while (q < x.length - p && q < y.length - p && x[x.length - 1 - q] === y[y.length - 1 - q]) q++;
          while (p > 0 && /[\w#$]/.test(x[p - 1])) p--; // whole tokens: ids stay hoverable
          while (q > 0 && /[\w#$]/.test(x[x.length - q])) q--;
          ops[k + i][2] = [p, q];
          ops[d + i][2] = [p, q];
        }
      }
      k = a;
    }
  }

  function showDiff(r, seq) {
    const ev = r.events.find((e) => e.seq === seq);
    const out = $('diff');
    out.textContent = '';
    const title = $('diff-title');
    title.textContent = '';
    if (!ev) {
      title.appendChild(document.createTextNode('Plan diff '));
      title.appendChild(el('span', null, '(click a rule)'));
      return;
    }
    r.selected = seq;
    markSelected(r, seq);
    title.appendChild(document.createTextNode(ev.rule + ' '));
    title.appendChild(el('span', null, ev.batch + ', iteration ' + ev.iteration + ' · ' + fmtUs(ev.ns) +
      (ev.scopeId ? ' · in ' + ev.scope : '') + (ev.effective ? ' · changed ' + (ev.kinds || 'the plan') : ' · no change')));
    if (!ev.effective) {
      out.appendChild(el('div', 'empty', 'This application left the plan unchanged.'));
      return;
    }
    if (!ev.plan) {
      out.appendChild(el('div', 'empty', 'No plan was sent for this event.'));
      return;
    }
    const before = planBefore(r, ev).replace(/\n$/, '').split('\n');
    const after = ev.plan.replace(/\n$/, '').split('\n');
    const ops = diffLines(before[0] === '' && before.length === 1 ? [] : before, after);
    markChangedParts(ops);
    const CONTEXT = 3;
    let lastShown = -1;
    ops.forEach((op, k) => {
      let show = op[0] !== ' ';
      for (let d = 1; !show && d <= CONTEXT; d++) show = (k >= d && ops[k - d][0] !== ' ') || (k + d < ops.length && ops[k + d][0] !== ' ');
      if (!show) return;
      if (lastShown !== k - 1) out.appendChild(el('div', 'l gap', '  …'));
      const line = el('div', 'l ' + (op[0] === '+' ? 'add' : op[0] === '-' ? 'del' : 'ctx'));
      line.appendChild(document.createTextNode(op[0] + ' '));
      if (op[2]) { // the changed middle of a replaced line
        const [a, b] = op[2];
        line.appendChild(planText(op[1].slice(0, a), null));
        const mid = el('span', 'chg');
        mid.appendChild(planText(op[1].slice(a, op[1].length - b), null));
        line.appendChild(mid);
        line.appendChild(planText(op[1].slice(op[1].length - b), null));
      } else line.appendChild(planText(op[1], null));
      out.appendChild(line);
      lastShown = k;
    });
    if (lastShown >= 0 && lastShown < ops.length - 1) out.appendChild(el('div', 'l gap', '  …'));
    if (lastShown < 0) out.appendChild(el('div', 'empty', 'The plan text is the same before and after (the change is not visible in the tree string).'));
  }

  function onRuleClick(ev) {
    const t = ev.target.closest('[data-seq]');
    if (!t || !run) return;
    const seq = Number(t.dataset.seq);
    showDiff(run, seq);
    state.sel = seq;
    saveState();
  }

  // ------------------------------------------------------------ errors

  function showError(err, query, where) {
    const box = $('error');
    box.textContent = '';
    if (!err) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const head = el('div');
    head.appendChild(el('span', 'cls', err.errorClass || 'ERROR'));
    if (err.sqlstate) head.appendChild(el('span', 'state', 'SQLSTATE ' + err.sqlstate));
    if (err.phase || where) head.appendChild(el('span', 'state', (where ? where + ', ' : '') + (err.phase || '')));
    box.appendChild(head);
    if (err.message) box.appendChild(el('div', 'msg', err.message));
    const params = err.messageParameters || {};
    const keys = Object.keys(params);
    if (keys.length) {
      const t = el('table');
      for (const k of keys) {
        const tr = el('tr');
        tr.appendChild(el('td', null, k));
        tr.appendChild(el('td', null, params[k]));
        t.appendChild(tr);
      }
      box.appendChild(t);
    }
    if (query != null) {
      const pre = el('pre', 'sql');
      const ctx = err.context || {};
      const chars = Array.from(query); // offsets count characters
      const start = ctx.start != null ? ctx.start : -1, stop = ctx.stop != null ? ctx.stop : -1;
      if (start >= 0 && stop >= start && start < chars.length) {
        pre.appendChild(document.createTextNode(chars.slice(0, start).join('')));
        pre.appendChild(el('span', 'ctx', chars.slice(start, stop + 1).join('')));
        pre.appendChild(document.createTextNode(chars.slice(stop + 1).join('')));
      } else pre.textContent = query;
      box.appendChild(pre);
    }
  }

  // ------------------------------------------------------------ a run

  let runCounter = 0;

  function resetOutput() {
    showError(null);
    $('setup').textContent = '';
    $('tree-u').textContent = '';
    $('tree-a').textContent = '';
    $('timeline').textContent = '';
    $('rules').textContent = '';
    $('tl-summary').textContent = '';
    showDiff(newRun(), -1);
  }

  async function analyze(opts) {
    readInputs();
    const myRun = ++runCounter;
    if (aborter) aborter.abort();
    aborter = new AbortController();
    const r = newRun();
    run = r;
    resetOutput();
    if (!(opts && opts.keepSelection)) {
      state.sel = null;
      state.toggled = [];
    }
    saveState();
    const t0 = performance.now();
    const sid = state.session;
    const live = () => myRun === runCounter;
    try {
      const catalog = parseCatalog();
      const conf = parseConf();
      let query = null;
      let setup = [];
      if (state.mode === 'sql') {
        const stmts = splitStatements(state.sql);
        if (!stmts.length) throw new Error('no statement to analyse');
        query = stmts[stmts.length - 1].text;
        setup = stmts.slice(0, -1).map((s) => s.text);
      }
      if (sid && state.fresh) await call('/v1/drop-session', { sessionId: sid });
      if (setup.length) {
        if (!sid) throw new Error('the statements before the last need a session id');
        setStatus('running ' + setup.length + ' set-up statement' + (setup.length > 1 ? 's' : '') + '…');
        const res = await call('/v1/execute', { sessionId: sid, sql: setup.join(';\n'), catalog: catalog || undefined, conf });
        if (!live()) return;
        const box = $('setup');
        (res.results || []).forEach((x, i) => {
          const d = el('div', x.ok ? 'ok' : 'no', (x.ok ? '✓ ' : '✗ ') + setup[i].split('\n')[0].slice(0, 80) +
            (x.ok ? '' : ' — ' + ((x.error && x.error.errorClass) || 'error')));
          box.appendChild(d);
        });
        const bad = (res.results || []).find((x) => !x.ok);
        if (bad) {
          showError(bad.error, setup[(res.results || []).indexOf(bad)], 'set-up statement');
          setStatus('a set-up statement failed', true);
          return;
        }
      } else if (sid && catalog) {
        await call('/v1/register-catalog', { sessionId: sid, catalog });
      }
      const base = { sessionId: sid || undefined, conf };
      if (!sid && catalog) base.catalog = catalog;
      if (query != null) {
        const parsed = await call('/v1/analyze', Object.assign({}, base, { sql: { query }, parseOnly: true }));
        if (!live()) return;
        const pr = parsed.result || {};
        if (!pr.ok) {
          renderTree($('tree-u'), [], 'u');
          showError(pr.error, query);
          setStatus('parse error', true);
          return;
        }
        r.parsed = pr.treeString || '';
        renderTree($('tree-u'), parseTreeString(r.parsed), 'u');
      } else {
        const plan = JSON.parse($('plan').value || 'null');
        if (!plan || typeof plan !== 'object') throw new Error('the Connect plan is a JSON object (a Relation)');
        base.plan = plan;
        renderTree($('tree-u'), [relationModel(plan)], 'u');
      }
      setStatus('analysing…');
      const req = Object.assign({}, base, {
        traceLevel: state.level === 'effective' ? 'TRACE_LEVEL_EFFECTIVE' : 'TRACE_LEVEL_ALL',
        tracePlans: true, planDetails: true,
      });
      if (query != null) req.sql = { query };
      let result = null, sessionEcho = '';
      await stream('/v1/analyze', req, (line) => {
        if (!live()) return;
        if (line.traceEvent) queueEvent(r, line.traceEvent);
        else if (line.result) {
          result = line.result;
          sessionEcho = line.serverSessionId ? ' · server session ' + line.serverSessionId : '';
        } else if (line.status) throw new Error('analyze: ' + line.message);
      });
      if (!live()) return;
      if (r.frame) {
        cancelAnimationFrame(r.frame);
        flushEvents(r);
      }
      r.result = result;
      if (!result) throw new Error('analyze: the stream ended without a result');
      if (result.ok && result.plan) renderTree($('tree-a'), [planModel(result.plan)], 'a');
      else if (result.ok) renderTree($('tree-a'), parseTreeString(result.treeString), 'a');
      else renderTree($('tree-a'), [], 'a');
      showError(result.ok ? null : result.error, query);
      fitScale(r);
      layoutTimeline(r);
      renderSummary(r);
      renderRules(r);
      if (state.sel != null) showDiff(r, state.sel);
      const ms = performance.now() - t0;
      const an = Number(result.analysisNanos || 0);
      setStatus((result.ok ? 'resolved' : 'analysis error') + ' · ' + r.events.length + ' rule applications' +
        (an ? ' · analysis ' + fmtUs(an) : '') + ' · page ' + ms.toFixed(0) + ' ms' + sessionEcho, !result.ok);
    } catch (e) {
      if (live()) setStatus(e.message, true);
    } finally {
      if (live()) document.body.dataset.done = String(myRun); // tests wait for this
    }
  }

  // ------------------------------------------------------------ examples: the seed cases

  const EXAMPLES = [
    { name: 'lateral column alias', catalog: '{"tables": [\n  {"name": "employee", "columns": [{"name": "dept", "type": "int"}, {"name": "name", "type": "string"},\n    {"name": "salary", "type": "int"}, {"name": "bonus", "type": "int"}]}\n]}',
      sql: 'SELECT dept AS a, a + 1 AS next, avg(salary) AS b, b + avg(bonus) AS total\nFROM employee\nGROUP BY dept' },
    { name: 'outer aggregate in a subquery', sql: 'CREATE TEMPORARY VIEW l AS VALUES (1, 2.0), (1, 2.0), (2, 1.0) AS l(a, b);\nCREATE TEMPORARY VIEW r AS VALUES (2, 3.0), (3, 2.0) AS r(c, d);\n\nSELECT l.a FROM l GROUP BY 1 HAVING EXISTS (SELECT 1 FROM r WHERE r.d < min(l.b))' },
    { name: 'alias in a subquery', conf: 'catalyzer.aliasInSubquery.enabled=true', sql: 'CREATE TEMPORARY VIEW xy AS VALUES (1, 2), (3, 4) AS xy(x, y);\n\nSELECT x + 1 AS newX, (SELECT max(y) FROM xy WHERE y > newX) AS m FROM xy' },
    { name: 'CTE through IDENTIFIER with variables', sql: 'DECLARE agg = \'max\';\nDECLARE col = \'c1\';\nDECLARE tab = \'T\';\n\nWITH S(c1, c2) AS (VALUES (1, 2), (2, 3)),\n     T(c1, c2) AS (VALUES (\'a\', \'b\'), (\'c\', \'d\'))\nSELECT IDENTIFIER(agg)(IDENTIFIER(col)) FROM IDENTIFIER(tab)' },
    { name: 'LATERAL join', sql: 'CREATE TEMPORARY VIEW t1 AS VALUES (0, 1), (1, 2) AS t1(a, b);\nCREATE TEMPORARY VIEW t2 AS VALUES (0, 2), (0, 3) AS t2(c, d);\n\nSELECT * FROM t1, LATERAL (SELECT * FROM t2 WHERE t1.a = t2.c)' },
  ];

  function loadExample(i) {
    const ex = EXAMPLES[i];
    if (!ex) return;
    state = Object.assign({}, DEFAULTS, { session: state.session || newSessionId(), sql: ex.sql, conf: ex.conf || '', catalog: ex.catalog || '' });
    writeInputs();
    analyze();
  }

  function newSessionId() {
    const b = new Uint8Array(4);
    crypto.getRandomValues(b);
    return 'dbg-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  // ------------------------------------------------------------ start

  async function fromFragment() {
    const frag = location.hash.slice(1);
    if (!frag || frag === lastFragment) return false;
    try {
      state = await decodeState(frag);
    } catch (e) {
      setStatus('link: ' + e.message, true);
      return false;
    }
    lastFragment = frag;
    writeInputs();
    analyze({ keepSelection: true });
    return true;
  }

  function start() {
    const sel = $('example');
    EXAMPLES.forEach((ex, i) => {
      const o = el('option', null, ex.name);
      o.value = String(i);
      sel.appendChild(o);
    });
    sel.addEventListener('change', () => {
      if (sel.value !== '') loadExample(Number(sel.value));
      sel.value = '';
    });
    for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => { setMode(t.dataset.mode); saveState(); });
    $('run').addEventListener('click', () => analyze());
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        analyze();
      }
    });
    $('catalog').addEventListener('input', renderCatalog);
    $('tree-u').addEventListener('click', onTreeClick);
    $('tree-a').addEventListener('click', onTreeClick);
    document.addEventListener('mouseover', onHover);
    $('timeline').addEventListener('click', onRuleClick);
    $('rules').addEventListener('click', onRuleClick);
    $('all-rows').addEventListener('change', () => run && renderRules(run));
    $('zoom-in').addEventListener('click', () => zoom(2));
    $('zoom-out').addEventListener('click', () => zoom(0.5));
    $('zoom-fit').addEventListener('click', () => zoom(0));
    window.addEventListener('hashchange', fromFragment);
    fromFragment().then((loaded) => {
      if (loaded) return;
      state = Object.assign({}, DEFAULTS, { session: newSessionId(), sql: EXAMPLES[0].sql, catalog: EXAMPLES[0].catalog });
      writeInputs();
      saveState();
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
