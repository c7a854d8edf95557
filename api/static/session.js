/* Tilelens recorded sessions: the session view on the phone page.
 *
 * Self-contained: it adds its own card after the result card, loads its own
 * stylesheet (/static/session.css) and talks to /api/sessions with the pairing
 * cookie. It shows the running totals per player, a score-over-hands line chart
 * (an SVG drawn here, no library), the list of hands with their photos, and the
 * undo / draw / end / export actions.
 *
 * One-tap recording from the result screen: the page announces each score with
 *   document.dispatchEvent(new CustomEvent('tilelens:scored', {detail: {request, result}}))
 * and this file then offers a "Record" button under the result, with the scan's photo
 * (detail.photo); 'tilelens:unscored' (the hand changed, or could not be scored) takes it away. The same is available
 * as window.TilelensSession.recordHand(request, photoFile).
 */
(function () {
  'use strict';

  var STORE_KEY = 'tilelens.session';
  var COLORS = ['#f5c84c', '#6fe3a1', '#7fb8ff', '#ff8f80'];
  var MAX_PHOTO_SIDE = 1600;
  var RECORDED_KEY = 'tilelens.recorded';
  var state = { id: null, data: null, variants: null, pending: null, busy: false };

  /* The hand a request describes (its tiles, winning tile and who won how), to tell the hand just
     recorded from the next one: after a record the session carries the next hand's context back
     and the page scores the same tiles again, which are not a new hand until a scan or an edit. */
  function handKey(request) {
    var r = request || {};
    return JSON.stringify([r.concealed || '', r.melds || [], r.flowers || '', r.winning_tile || null,
                           r.winner || null, !!r.self_drawn, r.self_drawn ? null : (r.discarder || null)]);
  }
  function lastRecorded() {
    try {
      var v = JSON.parse(window.localStorage.getItem(RECORDED_KEY) || 'null');
      return v && state.data && v.session === state.data.id ? v : null;
    } catch (e) { return null; }
  }
  function rememberRecorded(request, seq) {
    try {
      window.localStorage.setItem(RECORDED_KEY, JSON.stringify({ session: state.data.id, key: handKey(request), seq: seq }));
    } catch (e) { /* storage blocked: the note is kept for this page only */ }
  }

  // ------------------------------------------------------------------ helpers
  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function svg(tag, attrs) {
    var n = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, String(attrs[k])); });
    return n;
  }
  function signed(v) { return (v > 0 ? '+' : '') + v; }

  function api(method, url, body) {
    var opts = { method: method, credentials: 'same-origin', headers: {} };
    if (body instanceof FormData) opts.body = body;
    else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
    return fetch(url, opts).catch(function () {
      throw new Error('The server cannot be reached. Is this phone on the table\'s Wi-Fi?');
    }).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (data) {
        if (res.ok) return data;
        var err = new Error((data && data.error && data.error.message) || ('HTTP ' + res.status));
        err.status = res.status;
        err.code = data && data.error && data.error.code;
        throw err;
      });
    });
  }

  function remember(id) {
    state.id = id;
    try {
      if (id) window.localStorage.setItem(STORE_KEY, id); else window.localStorage.removeItem(STORE_KEY);
    } catch (e) { /* storage blocked: the session is kept for this page only */ }
  }

  function ensureStyles() {
    if (document.querySelector('link[href="/static/session.css"]')) return;
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/static/session.css';
    document.head.appendChild(link);
  }

  // ------------------------------------------------------------------ layout
  var card, recordBox;

  function build() {
    ensureStyles();
    card = el('section', 'card session');
    card.id = 'session';
    card.setAttribute('aria-live', 'polite');
    recordBox = el('div', 'session-record');
    recordBox.id = 'session-record';
    recordBox.hidden = true;
    var result = document.getElementById('result');
    var main = document.querySelector('main') || document.body;
    if (result && result.parentNode) {
      result.parentNode.insertBefore(recordBox, result.nextSibling);
      result.parentNode.insertBefore(card, recordBox.nextSibling);
    } else {
      main.appendChild(recordBox);
      main.appendChild(card);
    }
  }

  function message(text, kind) {
    var m = card.querySelector('.session-message');
    if (!m) return;
    m.textContent = text || '';
    m.className = 'session-message ' + (kind || '');
    m.hidden = !text;
  }

  // ------------------------------------------------------------------ start / pick a session
  function renderStart(list) {
    card.innerHTML = '';
    card.appendChild(el('h2', '', 'Session'));
    var msg = el('p', 'session-message'); msg.hidden = true; card.appendChild(msg);
    var form = el('form', 'session-start');
    form.id = 'session-start';
    var variantSel = el('select');
    variantSel.id = 'session-variant';
    variantSel.setAttribute('aria-label', 'Variant of the session');
    var names = Object.keys(state.variants || {});
    names.forEach(function (n) {
      var o = el('option', '', state.variants[n].title || n); o.value = n; variantSel.appendChild(o);
    });
    var pageVariant = document.getElementById('variant');
    if (pageVariant && names.indexOf(pageVariant.value) >= 0) variantSel.value = pageVariant.value;
    var players = el('div', 'session-players');
    function seatsFor() {
      var spec = state.variants && state.variants[variantSel.value];
      return spec ? spec.seats : ['E', 'S', 'W', 'N'];
    }
    function drawPlayers() {
      players.innerHTML = '';
      seatsFor().forEach(function (seat, i) {
        var lab = el('label', 'session-player');
        lab.appendChild(el('span', 'seat', seat));
        var inp = el('input');
        inp.name = 'player-' + seat;
        inp.required = true;
        inp.maxLength = 80;
        inp.placeholder = 'Player ' + (i + 1);
        inp.autocomplete = 'off';
        lab.appendChild(inp);
        players.appendChild(lab);
      });
    }
    variantSel.addEventListener('change', drawPlayers);
    drawPlayers();
    var title = el('input'); title.id = 'session-title'; title.placeholder = 'Title (optional)'; title.maxLength = 200;
    var go = el('button', 'button primary', 'Start session'); go.type = 'submit';
    form.appendChild(variantSel); form.appendChild(players); form.appendChild(title); form.appendChild(go);
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var names = Array.prototype.map.call(players.querySelectorAll('input'), function (i) { return i.value.trim(); });
      api('POST', '/api/sessions', { variant: variantSel.value, players: names, title: title.value.trim() })
        .then(function (s) { remember(s.id); show(s); }, function (err) { message(err.message, 'error'); });
    });
    card.appendChild(form);

    if (list && list.length) {
      card.appendChild(el('h3', '', 'Earlier sessions'));
      var ul = el('ul', 'session-list');
      list.forEach(function (s) {
        var li = el('li');
        var b = el('button', 'button ghost', (s.title || s.variant) + ' · ' + s.players.map(function (p) { return p.name; }).join(', ') +
          ' · ' + s.hands + ' hands' + (s.ended_at ? ' (ended)' : ''));
        b.type = 'button';
        b.addEventListener('click', function () { remember(s.id); refresh(); });
        li.appendChild(b);
        ul.appendChild(li);
      });
      card.appendChild(ul);
    }
    updateRecordBox();
  }

  // ------------------------------------------------------------------ the session view
  function series(data) {
    var seats = data.players.map(function (p) { return p.seat; });
    var running = {};
    seats.forEach(function (s) { running[s] = 0; });
    var points = [seats.map(function () { return 0; })];
    data.history.forEach(function (e) {
      if (e.status !== 'active') return;
      seats.forEach(function (s) { running[s] += e.payments[s] || 0; });
      points.push(seats.map(function (s) { return running[s]; }));
    });
    return { seats: seats, points: points };
  }

  function chart(data) {
    var sr = series(data);
    var W = 340, H = 180, P = 28;
    var all = [0];
    sr.points.forEach(function (row) { all = all.concat(row); });
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (hi === lo) { hi += 1; lo -= 1; }
    var n = Math.max(sr.points.length - 1, 1);
    function x(i) { return P + (W - 2 * P) * i / n; }
    function y(v) { return H - P - (H - 2 * P) * (v - lo) / (hi - lo); }
    var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, 'class': 'session-chart', role: 'img',
                            'aria-label': 'Score over hands' });
    root.id = 'session-chart';
    root.appendChild(svg('line', { x1: P, x2: W - P, y1: y(0), y2: y(0), 'class': 'zero' }));
    var lab = function (v, yy) { var t = svg('text', { x: 2, y: yy + 4, 'class': 'axis' }); t.textContent = String(v); return t; };
    root.appendChild(lab(hi, y(hi))); root.appendChild(lab(lo, y(lo)));
    if (lo < 0 && hi > 0) root.appendChild(lab(0, y(0)));
    sr.seats.forEach(function (seat, k) {
      var pts = sr.points.map(function (row, i) { return x(i).toFixed(1) + ',' + y(row[k]).toFixed(1); }).join(' ');
      var line = svg('polyline', { points: pts, fill: 'none', stroke: COLORS[k % COLORS.length], 'stroke-width': 2.5,
                                   'stroke-linejoin': 'round', 'data-seat': seat,
                                   'data-values': sr.points.map(function (row) { return row[k]; }).join(',') });
      root.appendChild(line);
      var last = sr.points[sr.points.length - 1];
      root.appendChild(svg('circle', { cx: x(sr.points.length - 1), cy: y(last[k]), r: 3.5, fill: COLORS[k % COLORS.length] }));
    });
    return root;
  }

  function describeEntry(e, names) {
    if (e.kind === 'hand') {
      var r = e.request || {};
      var how = r.self_drawn ? 'self-draw' : ('on ' + (names[r.discarder] || r.discarder || '?') + '\u2019s discard');
      return (names[r.winner] || r.winner) + ' wins, ' + how;
    }
    if (e.kind === 'draw') return 'Draw' + (e.request && e.request.event && e.request.event !== 'draw' ? ' (' + e.request.event + ')' : '');
    return 'Event: ' + e.name.replace(/_/g, ' ');
  }

  function show(data) {
    state.data = data;
    if (!data.ended_at && data.next_context) {  // the page's form takes over the carried context
      var next = {}; Object.keys(data.next_context).forEach(function (k) { next[k] = data.next_context[k]; });
      next.variant = data.variant;
      next.options = data.options || {};  // the session's table rules: what the page shows is what it records
      document.dispatchEvent(new CustomEvent('tilelens:context', { detail: next }));
    }
    card.innerHTML = '';
    var head = el('div', 'session-head');
    head.appendChild(el('h2', '', data.title || 'Session'));
    head.appendChild(el('span', 'muted small', (state.variants && state.variants[data.variant] ? state.variants[data.variant].title : data.variant) +
      (data.ended_at ? ' · ended' : '')));
    card.appendChild(head);
    var msg = el('p', 'session-message'); msg.hidden = true; card.appendChild(msg);

    var names = {};
    data.players.forEach(function (p) { names[p.seat] = p.name; });
    var scores = data.state && data.state.scores && typeof data.state.scores === 'object' ? data.state.scores : null;
    var table = el('table', 'session-totals');
    table.id = 'session-totals';
    var hr = el('tr');
    ['', 'Player', 'Total'].concat(scores ? ['Points'] : []).forEach(function (h) { hr.appendChild(el('th', '', h)); });
    table.appendChild(hr);
    data.players.forEach(function (p, k) {
      var tr = el('tr');
      tr.setAttribute('data-seat', p.seat);
      var sw = el('td', 'swatch'); var dot = el('span', 'dot c' + (k % COLORS.length)); sw.appendChild(dot); tr.appendChild(sw);
      var who = el('td', 'who', p.name); who.appendChild(el('span', 'seat', p.seat)); tr.appendChild(who);
      var total = data.totals[p.seat];
      var td = el('td', 'total ' + (total > 0 ? 'up' : total < 0 ? 'down' : ''), signed(total));
      td.setAttribute('data-total', String(total));
      tr.appendChild(td);
      if (scores) tr.appendChild(el('td', 'total', signed(scores[p.seat] || 0)));
      table.appendChild(tr);
    });
    card.appendChild(table);

    var ctxBits = [];
    var nc = data.next_context || {};
    if (nc.dealer) ctxBits.push('Dealer ' + (names[nc.dealer] || nc.dealer));
    if (nc.dealer_streak) ctxBits.push('streak ' + nc.dealer_streak);
    if (nc.round_wind) ctxBits.push('round ' + nc.round_wind);
    if (nc.riichi_sticks) ctxBits.push(nc.riichi_sticks + ' riichi stick(s)');
    if (data.state && data.state.chips) {
      ctxBits.push('chips ' + data.players.map(function (p) { return p.name + ' ' + (data.state.chips[p.seat] || 0); }).join(', '));
    }
    if (data.state && (data.state.finished || data.state.game_over)) ctxBits.push('the game is over');
    var ctx = el('p', 'session-context muted small', 'Next hand: ' + (ctxBits.join(' · ') || 'as the table decides'));
    ctx.id = 'session-context';
    card.appendChild(ctx);
    if (data.final && data.final.uma && data.final.uma.final) {
      card.appendChild(el('p', 'session-final', 'Final with uma: ' + data.players.map(function (p) {
        return p.name + ' ' + signed(data.final.uma.final[p.seat]);
      }).join(', ')));
    }

    card.appendChild(chart(data));

    var actions = el('div', 'session-actions');
    function action(label, handler, id) {
      var b = el('button', 'button ghost', label); b.type = 'button'; if (id) b.id = id;
      b.addEventListener('click', handler); actions.appendChild(b); return b;
    }
    var active = data.history.filter(function (e) { return e.status === 'active'; });
    if (!data.ended_at) {
      action('Undo last', undoLast, 'session-undo').disabled = !active.length;
      action('Record draw', recordDraw, 'session-draw');
      action('End session', endSession, 'session-end');
    }
    var csv = el('a', 'button ghost', 'CSV'); csv.href = '/api/sessions/' + data.id + '/export.csv'; csv.setAttribute('download', '');
    var json = el('a', 'button ghost', 'JSON'); json.href = '/api/sessions/' + data.id + '/export.json'; json.setAttribute('download', '');
    actions.appendChild(csv); actions.appendChild(json);
    action('Other sessions', function () { remember(null); refresh(); });
    card.appendChild(actions);

    var list = el('ol', 'session-hands');
    list.id = 'session-hands';
    data.history.slice().reverse().forEach(function (e) {
      var li = el('li', 'entry ' + e.kind + ' ' + e.status);
      li.setAttribute('data-seq', String(e.seq));
      li.setAttribute('data-status', e.status);
      if (e.photo) {
        var img = el('img', 'thumb'); img.src = e.photo; img.alt = 'Photo of hand ' + e.seq; img.loading = 'lazy';
        li.appendChild(img);
      }
      var text = el('div', 'entry-text');
      text.appendChild(el('span', 'entry-title', '#' + e.seq + ' ' + describeEntry(e, names)));
      var pays = data.players.filter(function (p) { return e.payments[p.seat]; }).map(function (p) {
        return p.name + ' ' + signed(e.payments[p.seat]);
      });
      text.appendChild(el('span', 'entry-pay muted small', pays.join(', ') || 'no payments'));
      if (e.status !== 'active') text.appendChild(el('span', 'entry-status small', e.status));
      li.appendChild(text);
      list.appendChild(li);
    });
    card.appendChild(list);
    updateRecordBox();
  }

  // ------------------------------------------------------------------ actions
  function write(method, path, body) {
    if (!state.data) return Promise.reject(new Error('no session'));
    body = body || {};
    body.version = state.data.version;
    return api(method, '/api/sessions/' + state.data.id + path, body).then(function (res) {
      return refresh().then(function () { return res; });
    }, function (err) {
      return failed(err, 'The session changed on another phone: check the list and try again.');
    });
  }

  // A stale version (409): reload, then say so; the caller's promise stays rejected.
  function failed(err, staleText) {
    if (err.status !== 409) {
      message(err.message, 'error');
      return Promise.reject(err);
    }
    return refresh().then(function () {
      message(staleText, 'error');
      throw err;
    });
  }

  function undoLast() { write('POST', '/undo', {}).catch(function () {}); }

  function recordDraw() {
    var seats = state.data.players.map(function (p) { return p.seat; });
    var body = { outcome: {} };
    if (state.data.variant === 'riichi') {
      var t = window.prompt('Tenpai seats at the draw (e.g. E W), empty for none:', '');
      if (t === null) return;
      body.outcome.tenpai = t.toUpperCase().split(/[^ESWN]+/).filter(function (s) { return seats.indexOf(s) >= 0; });
      body.payments_event = 'exhaustive_draw';
    }
    write('POST', '/draws', body).catch(function () {});
  }

  function endSession() {
    if (!window.confirm('End this session? No more hands can be recorded.')) return;
    write('POST', '/end', {}).catch(function () {});
  }

  function shrinkPhoto(file) {
    // Phone photos are large: send at most 1600 px on the long side, as JPEG.
    return new Promise(function (resolve) {
      if (!file || !window.createImageBitmap) { resolve(file || null); return; }
      window.createImageBitmap(file).then(function (bmp) {
        var scale = Math.min(1, MAX_PHOTO_SIDE / Math.max(bmp.width, bmp.height));
        var c = document.createElement('canvas');
        c.width = Math.round(bmp.width * scale); c.height = Math.round(bmp.height * scale);
        c.getContext('2d').drawImage(bmp, 0, 0, c.width, c.height);
        c.toBlob(function (blob) { resolve(blob || file); }, 'image/jpeg', 0.85);
      }, function () { resolve(null); });
    });
  }

  function cleanRequest(request) {
    var out = {};
    Object.keys(request || {}).forEach(function (k) { if (k !== 'variant' && k !== 'options') out[k] = request[k]; });
    return out;
  }

  function recordHand(request, photo) {
    if (!state.data) return Promise.reject(new Error('Start a session first.'));
    var body = { version: state.data.version, request: cleanRequest(request) };
    return shrinkPhoto(photo).then(function (blob) {
      var payload = body;
      if (blob) {
        payload = new FormData();
        payload.append('record', JSON.stringify(body));
        payload.append('photo', blob, 'hand.jpg');
      }
      return api('POST', '/api/sessions/' + state.data.id + '/hands', payload);
    }).then(function (res) {
      state.pending = null;
      rememberRecorded(request, res.recorded.seq);
      return refresh().then(function () { message('Hand #' + res.recorded.seq + ' recorded.', 'ok'); return res; });
    }, function (err) {
      return failed(err, 'Another phone recorded first: check the list before recording again.');
    });
  }

  // ------------------------------------------------------------------ the Record button under the result
  function updateRecordBox() {
    if (!recordBox) return;
    recordBox.innerHTML = '';
    var p = state.pending, data = state.data;
    if (!p || !data || data.ended_at || !p.result || !p.result.winning || !p.result.payments ||
        typeof p.result.payments !== 'object') {
      recordBox.hidden = true;
      return;
    }
    recordBox.hidden = false;
    if (p.request.variant && p.request.variant !== data.variant) {
      recordBox.appendChild(el('p', 'muted small', 'This hand is ' + p.request.variant + '; the session is ' + data.variant + '.'));
      return;
    }
    var names = {};
    data.players.forEach(function (q) { names[q.seat] = q.name; });
    var done = lastRecorded();
    var again = done && done.key === handKey(p.request);
    if (again) {  // the hand just recorded, scored again under the next hand's context
      var note = el('p', 'muted small', 'Hand #' + done.seq + ' is these tiles, recorded. Photograph or edit the next hand to record it.');
      note.id = 'session-recorded-note';
      recordBox.appendChild(note);
    }
    var differs = optionsDiffer(p.request.options, data);
    if (differs.length) {
      recordBox.appendChild(el('p', 'session-warning small', 'The session keeps the table rules it started with (' +
        differs.join(', ') + ' differ here): it records this hand under its own.'));
    }
    var b = el('button', again ? 'button ghost' : 'button primary huge',
               (again ? 'Record these tiles again for ' : 'Record for ') + (names[p.request.winner] || p.request.winner));
    b.type = 'button';
    b.id = again ? 'session-record-again' : 'session-record-button';
    b.addEventListener('click', function () {
      b.disabled = true;
      var input = document.getElementById('photo');
      var file = p.photo || (input && input.files && input.files[0] ? input.files[0] : null);
      recordHand(p.request, file).then(function () {}, function () { b.disabled = false; });
    });
    recordBox.appendChild(b);
    recordBox.appendChild(el('p', 'muted small', 'Dealer, streak and carried state come from the session.'));
  }

  /* The table rules of ``options`` (a score request's) that differ from the session's, by name. */
  function optionsDiffer(options, data) {
    var spec = state.variants && state.variants[data.variant];
    if (!spec || !options) return [];
    var own = data.options || {}, out = [];
    (spec.options || []).forEach(function (o) {
      var mine = own[o.name] !== undefined ? own[o.name] : o.default;
      var theirs = options[o.name] !== undefined ? options[o.name] : o.default;
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) out.push(o.name.replace(/_/g, ' '));
    });
    return out;
  }

  document.addEventListener('tilelens:scored', function (e) {
    var d = e.detail || {};
    state.pending = d.request && d.result ? { request: d.request, result: d.result, photo: d.photo || null } : null;
    updateRecordBox();
  });
  // the hand changed or could not be scored: nothing on screen to record until it is scored again
  document.addEventListener('tilelens:unscored', function () {
    state.pending = null;
    updateRecordBox();
  });

  // ------------------------------------------------------------------ loading
  function refresh() {
    var variants = state.variants ? Promise.resolve(state.variants) :
      api('GET', '/api/variants').then(function (v) { state.variants = v; return v; }, function () { return null; });
    return variants.then(function () {
      if (!state.id) return api('GET', '/api/sessions').then(renderStart, function (err) { renderStart([]); message(err.message, 'error'); });
      return api('GET', '/api/sessions/' + encodeURIComponent(state.id)).then(show, function (err) {
        if (err.status === 404) { remember(null); return refresh(); }
        renderStart([]);
        message(err.message, 'error');
      });
    });
  }

  function start() {
    build();
    try { state.id = window.localStorage.getItem(STORE_KEY); } catch (e) { state.id = null; }
    refresh();
  }

  window.TilelensSession = {
    recordHand: recordHand,
    refresh: refresh,
    active: function () { return !!(state.data && !state.data.ended_at); },
    current: function () { return state.data; }
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
