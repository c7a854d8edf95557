/* Tilelens phone page. Plain ES2015, no framework, no build step, no outside requests.
 *
 * State: the context (variant, seats, flags, table rules; kept in localStorage),
 * the hand (concealed row, melds, flowers; each tile remembers its scan detection)
 * and the last scan (photo boxes and top-3 guesses). Every change re-scores the
 * hand through POST /api/score.
 */
(function () {
  'use strict';

  var SEATS = ['E', 'S', 'W', 'N'];
  var SEAT_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };
  var SUIT_ORDER = 'mpszfahj';
  var SUIT_SIZES = { m: 9, p: 9, s: 9, z: 7, f: 8, a: 4, h: 4, j: 1 };
  var SUIT_TITLES = { m: 'Characters', p: 'Circles', s: 'Bamboo', z: 'Honors', f: 'Flowers', a: 'Animals', h: 'Faces', j: 'Fei' };
  var HONOR_NAMES = ['East', 'South', 'West', 'North', 'White', 'Green', 'Red'];
  var HONOR_FACES = '東南西北白發中';
  var FLOWER_NAMES = ['Spring', 'Summer', 'Autumn', 'Winter', 'Plum', 'Orchid', 'Chrysanthemum', 'Bamboo'];
  var FLOWER_FACES = '春夏秋冬梅蘭菊竹';
  // why the scanner moved a reading to another kind of its top 3 (vision.scan's moved_because)
  var MOVED_BECAUSE = {
    copies: 'the photo already has every copy a set holds',
    in_row: 'no flower lies inside a row of tiles',
    meld: 'this makes the group beside the row a set'
  };
  var ANIMAL_NAMES = ['Cat', 'Rat', 'Rooster', 'Centipede'];
  var ANIMAL_FACES = ['貓', '鼠', '雞', '蜈'];
  var NUMERALS = '一二三四五六七八九';
  var SUIT_FACES = { m: '萬', p: '筒', s: '索' };
  var DEFAULT_SUITS = 'mpszf';
  var BONUS_SUITS = 'fah';
  var LOW_CONFIDENCE = 0.6;
  var PHOTO_LIMIT = 25 * 1024 * 1024;
  var STORE_KEY = 'tilelens.context.v1';
  var HAND_KEY = 'tilelens.hand.v1';  // sessionStorage: survives the tab being reloaded after the camera
  var SCORE_DELAY_MS = 250;
  var OTHER_GUESS_LEAST = 0.02;  // a scan guess this likely may be offered as a misread tile's kind
  var OTHER_GUESSES_MAX = 48;    // single-tile changes asked about at once (POST /api/score/many)
  var OTHER_GUESSES_SHOWN = 3;

  var $ = function (id) { return document.getElementById(id); };

  // ------------------------------------------------------------------ state
  var variants = {};
  var carriedContext = null;  // a session's next-hand context that arrived before the variants
  var ctx = loadContext();
  var hand = { concealed: [], melds: [], flowers: [], winId: null, winAuto: true };
  var scan = null;          // last scan result
  var nextId = 1;
  var sheet = null;         // {mode: 'edit'|'add'|'pick', ...}
  var scoreSeq = 0;
  var scoreTimer = null;
  var missingImages = {};

  function defaultContext() {
    return {
      variant: null, winner: 'E', selfDrawn: true, discarder: 'S', dealer: 'E',
      streak: 0, round: 'E', indicator: null, flags: {}, options: {}
    };
  }

  function loadContext() {
    var base = defaultContext();
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORE_KEY) || 'null');
      if (saved && typeof saved === 'object') {
        Object.keys(base).forEach(function (k) { if (saved[k] !== undefined) base[k] = saved[k]; });
      }
    } catch (e) { /* private mode or bad JSON: start from defaults */ }
    if (!base.flags || typeof base.flags !== 'object') base.flags = {};
    if (!base.options || typeof base.options !== 'object') base.options = {};
    return base;
  }

  function saveContext() {
    try { window.localStorage.setItem(STORE_KEY, JSON.stringify(ctx)); } catch (e) { /* storage full or blocked */ }
  }

  // ------------------------------------------------------------------ tiles
  function parseTiles(text) {
    var out = [], digits = [];
    String(text || '').split('').forEach(function (ch) {
      if (ch >= '0' && ch <= '9') digits.push(ch);
      else if (SUIT_SIZES[ch]) { digits.forEach(function (d) { out.push(d + ch); }); digits = []; }
    });
    return out;
  }

  function tileOrder(code) { return SUIT_ORDER.indexOf(code[1]) * 10 + Number(code[0]); }

  function formatTiles(codes) {
    var sorted = codes.slice().sort(function (a, b) { return tileOrder(a) - tileOrder(b); });
    var out = '', suit = '';
    sorted.forEach(function (c) {
      if (suit && c[1] !== suit) out += suit;
      suit = c[1];
      out += c[0];
    });
    return suit ? out + suit : '';
  }

  function isTileCode(s) {
    return typeof s === 'string' && s.length === 2 && SUIT_SIZES[s[1]] !== undefined &&
      Number(s[0]) >= 1 && Number(s[0]) <= SUIT_SIZES[s[1]];
  }

  function tileName(code) {
    if (code === 'back') return 'Tile back';
    var n = Number(code[0]), s = code[1];
    if (s === 'm') return n + (n === 1 ? ' character' : ' characters');
    if (s === 'p') return n + (n === 1 ? ' circle' : ' circles');
    if (s === 's') return n + ' bamboo';
    if (s === 'z') return HONOR_NAMES[n - 1] + (n > 4 ? ' dragon' : ' wind');
    if (s === 'f') return FLOWER_NAMES[n - 1] + ' (flower ' + n + ')';
    if (s === 'a') return ANIMAL_NAMES[n - 1];
    if (s === 'h') return 'Face ' + n;
    if (s === 'j') return 'Fei (wild)';
    return code;
  }

  function tileFace(code) {
    var n = Number(code[0]), s = code[1];
    if (SUIT_FACES[s]) return NUMERALS[n - 1] + '<br>' + SUIT_FACES[s];
    if (s === 'z') return HONOR_FACES[n - 1];
    if (s === 'f') return FLOWER_FACES[n - 1] + '<br>' + n;
    if (s === 'a') return ANIMAL_FACES[n - 1];
    if (s === 'h') return '人<br>' + n;
    if (s === 'j') return '飛';
    return code;
  }

  function showFace(el, code) {
    var face = document.createElement('span');
    face.className = 'face';
    face.innerHTML = tileFace(code);
    el.textContent = '';
    el.appendChild(face);
  }

  /* A tile picture: the server's PNG, or the tile's characters when it has none. */
  function tileEl(code, opts) {
    opts = opts || {};
    var el = document.createElement(opts.button ? 'button' : 'span');
    if (opts.button) el.type = 'button';
    el.className = 'tile' + (opts.small ? ' small' : '');
    el.setAttribute('data-code', code);
    el.setAttribute('aria-label', tileName(code));
    el.title = tileName(code);
    if (missingImages[code]) {
      showFace(el, code);
    } else {
      var img = document.createElement('img');
      img.alt = '';
      el.className += ' img';
      img.onerror = function () {
        missingImages[code] = true;
        el.className = el.className.replace(' img', '');
        showFace(el, code);
      };
      img.src = '/api/tiles/' + code + '.png';
      el.appendChild(img);
    }
    return el;
  }

  /* The suits this variant plays with, from its tile set (GET /api/variants). */
  function variantSuits() {
    var spec = variants[ctx.variant];
    if (!spec || !spec.tiles) return DEFAULT_SUITS;
    var suits = '';
    SUIT_ORDER.split('').forEach(function (s) {
      for (var code in spec.tiles) if (code[1] === s) { suits += s; return; }
    });
    return suits || DEFAULT_SUITS;
  }

  function variantHas(code) {
    var spec = variants[ctx.variant];
    return !spec || !spec.tiles || spec.tiles[code] !== undefined;
  }

  function variantSeats() {
    var spec = variants[ctx.variant];
    return spec && spec.seats && spec.seats.length ? spec.seats : SEATS;
  }

  /* The round winds the variant's game is played over (riichi: East and South). */
  function variantRounds() {
    var spec = variants[ctx.variant];
    return spec && spec.round_winds && spec.round_winds.length ? spec.round_winds : variantSeats();
  }

  // ------------------------------------------------------------------ http
  function request(method, url, body, onUploadProgress) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.withCredentials = true;
      xhr.responseType = 'text';
      if (body && !(body instanceof FormData)) {
        xhr.setRequestHeader('Content-Type', 'application/json');
        body = JSON.stringify(body);
      }
      if (onUploadProgress && xhr.upload) {
        xhr.upload.onprogress = function (e) { if (e.lengthComputable) onUploadProgress(e.loaded / e.total, false); };
        xhr.upload.onload = function () { onUploadProgress(1, true); };
      }
      xhr.onload = function () {
        var data = null;
        try { data = JSON.parse(xhr.responseText); } catch (e) { data = null; }
        if (xhr.status === 401) showPairing(errorMessage(data, 'This phone is not paired.'));
        resolve({ status: xhr.status, data: data });
      };
      xhr.onerror = function () { reject(new Error('The server cannot be reached. Is this phone on the table\'s Wi-Fi?')); };
      xhr.ontimeout = function () { reject(new Error('The server took too long to answer.')); };
      xhr.timeout = 120000;
      xhr.send(body || null);
    });
  }

  function errorMessage(data, fallback) {
    if (data && data.error && data.error.message) return data.error.message;
    return fallback;
  }

  function showPairing(message) {
    $('pairing').hidden = false;
    $('pairing-message').textContent = message;
    ['capture', 'hand', 'context', 'result', 'table'].forEach(function (id) { $(id).hidden = true; });
    $('variant').parentNode.hidden = true;
  }

  // ------------------------------------------------------------------ scan
  /* Only a scan that succeeds replaces the last one: while a photo uploads it is shown without
     boxes, and where its scan fails the last scan's photo, boxes and tiles come back. The photo
     of the last scan that succeeded is the one a recorded hand keeps (session.js). */
  function onPhoto() {
    var file = $('photo').files[0];
    if (!file) return;
    $('scan-error').hidden = true;
    if (file.size > PHOTO_LIMIT) {
      showScanError('The photo is ' + (file.size / 1048576).toFixed(1) + ' MB; the limit is 25 MB.');
      return;
    }
    var url = window.URL.createObjectURL(file);
    var img = $('photo-img');
    var before = { src: img.getAttribute('src'), view: $('photo-view').hidden, info: $('scan-info').hidden,
                   zoomed: photoZoomed };
    photoPending = true;
    photoZoomed = true;
    img.onload = function () { drawOverlay(); };
    img.src = url;
    $('photo-view').hidden = false;
    $('scan-info').hidden = true;
    setProgress(0, false);
    var form = new FormData();
    form.append('photo', file, file.name || 'photo.jpg');
    $('capture').setAttribute('data-state', 'busy');
    function failed(message) {
      photoPending = false;
      photoZoomed = before.zoomed;
      window.URL.revokeObjectURL(url);
      if (before.src) img.src = before.src; else { img.removeAttribute('src'); drawOverlay(); }
      $('photo-view').hidden = before.view;
      $('scan-info').hidden = before.info;
      showScanError(message);
    }
    request('POST', '/api/scan', form, setProgress).then(function (res) {
      $('progress').hidden = true;
      if (res.status !== 200) {
        failed(errorMessage(res.data, 'The scan failed (HTTP ' + res.status + ').'));
        return;
      }
      photoPending = false;
      if (before.src) window.URL.revokeObjectURL(before.src);
      scannedPhoto = file;
      applyScan(res.data);
    }, function (err) {
      $('progress').hidden = true;
      failed(err.message);
    }).then(function () {
      $('capture').setAttribute('data-state', 'done');
      $('photo').value = '';
    });
  }

  function setProgress(fraction, uploaded) {
    var p = $('progress');
    p.hidden = false;
    if (uploaded) {
      p.className = 'progress scanning';
      $('progress-text').textContent = 'Reading the tiles\u2026';
    } else {
      p.className = 'progress';
      $('progress-bar').style.width = Math.round(fraction * 100) + '%';
      $('progress-text').textContent = 'Uploading\u2026 ' + Math.round(fraction * 100) + '%';
    }
  }

  function showScanError(message) {
    var el = $('scan-error');
    el.textContent = message;
    el.hidden = false;
  }

  function groupKind(group) {
    var g = String(group === undefined || group === null ? '' : group).toLowerCase();
    if (g.indexOf('flower') >= 0 || g.indexOf('bonus') >= 0) return 'flowers';
    if (g.indexOf('meld') >= 0) return 'melds';
    if (g.indexOf('concealed') >= 0 || g.indexOf('hand') >= 0) return 'concealed';
    return '';
  }

  /* Turn a scan into the hand, pairing each tile of scan.hand with a detection of the same code. */
  function applyScan(result) {
    scan = result;
    var dets = result.tiles || [];
    var used = {};
    function take(code, kind) {
      var best = -1;
      for (var i = 0; i < dets.length; i++) {
        if (used[i] || dets[i].tile !== code) continue;
        if (groupKind(dets[i].group) === kind) { best = i; break; }
        if (best < 0) best = i;
      }
      if (best >= 0) used[best] = true;
      return newItem(code, best);
    }
    var h = result.hand || {};
    var concealed = parseTiles(h.concealed).map(function (c) { return take(c, 'concealed'); });
    // The scan lists tiles in reading order: keep the row in that order (tiles it did not see go last).
    concealed.sort(function (a, b) { return (a.det < 0 ? 1e9 : a.det) - (b.det < 0 ? 1e9 : b.det); });
    hand = {
      concealed: concealed,
      melds: (h.melds || []).map(function (m) {
        return { tiles: parseTiles(m.tiles).map(function (c) { return take(c, 'melds'); }), concealed: !!m.concealed,
                 unknown: !!m.unknown && !parseTiles(m.tiles).length };
      }),
      flowers: parseTiles(h.flowers).map(function (c) { return take(c, 'flowers'); }),
      winId: null,
      winAuto: true
    };
    var low = dets.filter(function (d) { return d.confidence < LOW_CONFIDENCE; }).length;
    var info = dets.length + ' tiles found';
    if (low) info += ', ' + low + ' unsure (dashed boxes): tap to check';
    if (result.timings_ms && result.timings_ms.total) info += ' \u00b7 ' + Math.round(result.timings_ms.total) + ' ms';
    // a white or light grey cloth is as pale as the faces: the scanner finds them by their outlines there, and misses more
    if (result.image && result.image.pale_table) info += ' \u00b7 on a pale table tiles can be missed: a darker cloth or mat reads better';
    // part of the hand lay in a shadow (a phone's or an arm's): it was read with the photo's light evened
    if (result.image && result.image.evened_light === 'kept') info += ' \u00b7 part of the hand lay in shadow: check its tiles, or shoot again without the phone\u2019s shadow';
    $('scan-info').textContent = info;
    $('scan-info').hidden = false;
    saveHand();
    renderHand();
    drawOverlay();
    scheduleScore();
  }

  function newItem(code, det) {
    return { id: nextId++, code: code, det: det === undefined ? -1 : det };
  }

  function detection(item) {
    return scan && item.det >= 0 && scan.tiles ? scan.tiles[item.det] : null;
  }

  var photoZoomed = true;
  var photoPending = false;  // a photo is uploading: it is shown without the last scan's boxes
  var scannedPhoto = null;   // the photo file of the last scan that succeeded

  /* The region of the photo to show: the tiles' bounding box with a margin, or the whole photo. */
  function photoViewBox(w, h) {
    var xs = [], ys = [];
    if (photoZoomed && !photoPending && scan && scan.tiles) {
      scan.tiles.forEach(function (d) { (d.corners || []).forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
    }
    if (!xs.length) return [0, 0, w, h];
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var m = 0.06 * Math.max(x1 - x0, y1 - y0, 0.2 * Math.max(w, h));
    x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m);
    x1 = Math.min(w, x1 + m); y1 = Math.min(h, y1 + m);
    return [x0, y0, x1 - x0, y1 - y0];
  }

  /* The photo (zoomed to the tiles) with a box on every tile found, drawn as one SVG. */
  function drawOverlay() {
    var svg = $('overlay'), img = $('photo-img');
    var ns = 'http://www.w3.org/2000/svg';
    var im = (scan && scan.image) || {};
    var w = im.width || img.naturalWidth, h = im.height || img.naturalHeight;
    svg.innerHTML = '';
    if (photoPending) { w = img.naturalWidth; h = img.naturalHeight; }
    if (!w || !h || !img.getAttribute('src')) return;
    var vb = photoViewBox(w, h);
    svg.setAttribute('viewBox', vb.join(' '));
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    var width = svg.clientWidth || svg.parentNode.clientWidth || 360;
    svg.style.height = Math.round(Math.min(width * vb[3] / vb[2], window.innerHeight * 0.6)) + 'px';
    var pic = document.createElementNS(ns, 'image');
    pic.setAttribute('href', img.src);
    pic.setAttributeNS('http://www.w3.org/1999/xlink', 'xlink:href', img.src);
    pic.setAttribute('x', 0); pic.setAttribute('y', 0);
    pic.setAttribute('width', w); pic.setAttribute('height', h);
    pic.setAttribute('preserveAspectRatio', 'none');
    pic.addEventListener('click', function () { photoZoomed = !photoZoomed; drawOverlay(); });
    svg.appendChild(pic);
    $('photo-hint').textContent = !photoPending && scan && scan.tiles && scan.tiles.length
      ? 'Tap a box to fix that tile; tap the photo to ' + (photoZoomed ? 'see all of it.' : 'zoom to the tiles.')
      : '';
    if (photoPending || !scan || !scan.tiles) return;
    var selectedDet = -1;
    if (sheet && sheet.mode === 'edit') {
      var found = findItem(sheet.id);
      if (found) selectedDet = found.item.det;
    }
    scan.tiles.forEach(function (d, i) {
      if (!d.corners || d.corners.length < 3) return;
      var poly = document.createElementNS(ns, 'polygon');
      poly.setAttribute('points', d.corners.map(function (p) { return p[0] + ',' + p[1]; }).join(' '));
      var owner = itemForDetection(i);
      var cls = d.confidence < LOW_CONFIDENCE && !(owner && owner.edited) ? 'low' : '';
      if (i === selectedDet) cls += ' selected';
      poly.setAttribute('class', cls);
      poly.setAttribute('data-det', i);
      poly.addEventListener('click', function () {
        var item = itemForDetection(i);
        if (item) openEdit(item.id);
      });
      svg.appendChild(poly);
    });
  }

  function itemForDetection(det) {
    var all = allItems();
    for (var i = 0; i < all.length; i++) if (all[i].item.det === det) return all[i].item;
    return null;
  }

  // ------------------------------------------------------------------ hand model
  function allItems() {
    var out = [];
    hand.concealed.forEach(function (it, i) { out.push({ item: it, list: hand.concealed, index: i, zone: 'concealed' }); });
    hand.melds.forEach(function (m, mi) {
      m.tiles.forEach(function (it, i) { out.push({ item: it, list: m.tiles, index: i, zone: 'meld', meld: mi }); });
    });
    hand.flowers.forEach(function (it, i) { out.push({ item: it, list: hand.flowers, index: i, zone: 'flowers' }); });
    return out;
  }

  function findItem(id) {
    var all = allItems();
    for (var i = 0; i < all.length; i++) if (all[i].item.id === id) return all[i];
    return null;
  }

  function handSize() {
    var n = hand.concealed.length;
    hand.melds.forEach(function (m) { if (m.tiles.length) n += 3; });
    return n;
  }

  /* The winning tile: the one chosen, or by default the right-most concealed tile of a complete-sized hand. */
  function winningItem() {
    if (hand.winId !== null) {
      var f = findItem(hand.winId);
      if (f && f.zone === 'concealed') return f.item;
      hand.winId = null;
    }
    if (hand.winAuto && hand.concealed.length && handSize() % 3 === 2) {
      return hand.concealed[hand.concealed.length - 1];
    }
    return null;
  }

  function dropEmptyMelds() {
    hand.melds = hand.melds.filter(function (m) { return m.tiles.length > 0 || m.unknown; });
  }

  function changed() {
    dropEmptyMelds();
    saveHand();
    renderHand();
    drawOverlay();
    scheduleScore();
  }

  /* Keep the hand (and the scan's guesses, not the photo) for this tab: old phones
     often reload the page after the camera app. */
  function saveHand() {
    try {
      var scanLite = scan ? { tiles: scan.tiles, hand: scan.hand, image: scan.image } : null;
      window.sessionStorage.setItem(HAND_KEY, JSON.stringify({ hand: hand, scan: scanLite, nextId: nextId }));
    } catch (e) { /* storage blocked or full: the hand just is not kept */ }
  }

  function loadHand() {
    try {
      var saved = JSON.parse(window.sessionStorage.getItem(HAND_KEY) || 'null');
      if (!saved || !saved.hand || !Array.isArray(saved.hand.concealed)) return;
      hand = saved.hand;
      scan = saved.scan;
      nextId = saved.nextId || 1000;
    } catch (e) { /* a bad saved hand is dropped */ }
  }

  // ------------------------------------------------------------------ hand view
  function renderHand() {
    var win = winningItem();
    fillRow($('row-concealed'), hand.concealed, win, 'concealed');
    $('count-concealed').textContent = hand.concealed.length ? '(' + hand.concealed.length + ')' : '';
    var melds = $('melds');
    melds.innerHTML = '';
    hand.melds.forEach(function (m, mi) {
      var box = document.createElement('div');
      box.className = 'meld';
      box.setAttribute('data-meld', mi);
      var row = document.createElement('div');
      row.className = 'tiles';
      fillRow(row, m.tiles, null, 'meld:' + mi);
      if (m.unknown && !m.tiles.length) {
        row.insertBefore(el('span', 'empty-zone', 'Face-down kong: tap + to say which tile'), row.firstChild);
      }
      box.appendChild(row);
      var tools = document.createElement('div');
      tools.className = 'meld-tools';
      if (m.tiles.length === 4) {
        var kong = document.createElement('button');
        kong.type = 'button';
        kong.className = 'button ghost';
        kong.setAttribute('aria-pressed', m.concealed ? 'true' : 'false');
        kong.textContent = m.concealed ? 'Concealed kong' : 'Open kong';
        kong.addEventListener('click', function () { m.concealed = !m.concealed; changed(); });
        tools.appendChild(kong);
      }
      box.appendChild(tools);
      melds.appendChild(box);
    });
    $('zone-flowers').hidden = variantSuits().indexOf('f') < 0 && !hand.flowers.length;
    fillRow($('row-flowers'), hand.flowers, null, 'flowers');
    $('count-flowers').textContent = hand.flowers.length ? '(' + hand.flowers.length + ')' : '';
    renderWinningTile(win);
  }

  function fillRow(row, items, win, zone) {
    row.innerHTML = '';
    items.forEach(function (it) {
      var el = tileEl(it.code, { button: true });
      el.setAttribute('data-id', it.id);
      var d = detection(it);
      if (d && d.confidence < LOW_CONFIDENCE && !it.edited) el.className += ' low';
      if (win && win.id === it.id) el.className += ' winning';
      if (sheet && sheet.mode === 'edit' && sheet.id === it.id) el.className += ' selected';
      el.addEventListener('click', function () { openEdit(it.id); });
      row.appendChild(el);
    });
    var add = document.createElement('button');
    add.type = 'button';
    add.className = 'tile add';
    add.textContent = '+';
    add.setAttribute('aria-label', 'Add a tile');
    add.setAttribute('data-add', zone);
    add.addEventListener('click', function () { openAdd(zone); });
    row.appendChild(add);
  }

  function renderWinningTile(win) {
    var view = $('winning-tile-view'), help = $('winning-tile-help');
    view.innerHTML = '';
    if (win) {
      view.appendChild(tileEl(win.code, { small: true }));
      help.textContent = hand.winId === null ? 'the last tile of the row (tap a tile to choose another)' : '';
    } else if (hand.concealed.length) {
      help.textContent = 'none: the result shows the waits. Tap a tile and choose \u2605 to claim a win.';
    } else {
      help.textContent = 'tap a tile and choose \u2605 Winning tile';
    }
  }

  // ------------------------------------------------------------------ tile sheet
  function openEdit(id) {
    sheet = { mode: 'edit', id: id };
    renderSheet();
  }

  function openAdd(zone) {
    sheet = { mode: 'add', zone: zone, added: [] };
    renderSheet();
  }

  function openPick(title, onPick, suits) {
    sheet = { mode: 'pick', title: title, onPick: onPick, suits: suits };
    renderSheet();
  }

  function closeSheet() {
    sheet = null;
    $('sheet').hidden = true;
    renderHand();
    drawOverlay();
  }

  function zoneTitle(zone) {
    if (zone === 'concealed') return 'the concealed row';
    if (zone === 'flowers') return 'the flowers';
    if (zone === 'new-meld') return 'a new meld';
    return 'meld ' + (Number(zone.split(':')[1]) + 1);
  }

  function zoneList(zone) {
    if (zone === 'concealed') return hand.concealed;
    if (zone === 'flowers') return hand.flowers;
    if (zone === 'new-meld') {
      hand.melds.push({ tiles: [], concealed: false });
      return hand.melds[hand.melds.length - 1].tiles;
    }
    var m = hand.melds[Number(zone.split(':')[1])];
    return m ? m.tiles : hand.concealed;
  }

  function actionButton(label, cls, onClick, name) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'button ' + (cls || '');
    b.textContent = label;
    if (name) b.setAttribute('data-action', name);
    b.addEventListener('click', onClick);
    return b;
  }

  function renderSheet() {
    var title = $('sheet-title'), current = $('sheet-current'), actions = $('sheet-actions');
    var guesses = $('sheet-guesses');
    current.innerHTML = ''; actions.innerHTML = ''; guesses.innerHTML = '';
    var suits = variantSuits();
    if (sheet.mode === 'edit') {
      var f = findItem(sheet.id);
      if (!f) { closeSheet(); return; }
      var item = f.item;
      title.textContent = tileName(item.code);
      current.appendChild(tileEl(item.code));
      var d = detection(item);
      var note = document.createElement('span');
      note.className = 'muted';
      if (!d) note.textContent = 'added by hand';
      else if (item.edited) note.textContent = 'set by you (the scan read ' + tileName(d.tile) + ')';
      else note.textContent = 'scanned, ' + Math.round(d.confidence * 100) + '% sure' + (d.moved_from
        ? ' (read first as ' + tileName(d.moved_from) + ', but ' + (MOVED_BECAUSE[d.moved_because] || MOVED_BECAUSE.copies) + ')' : '');
      current.appendChild(note);
      if (f.zone === 'concealed') {
        var isWin = winningItem() && winningItem().id === item.id;
        actions.appendChild(actionButton(isWin ? '\u2605 Not the winning tile' : '\u2605 Winning tile', isWin ? '' : 'primary', function () {
          if (isWin) { hand.winId = null; hand.winAuto = false; } else { hand.winId = item.id; hand.winAuto = false; }
          closeSheet(); changed();
        }, 'winning'));
      }
      if (f.zone !== 'concealed') actions.appendChild(actionButton('To concealed', '', function () { moveTo(f, 'concealed'); }, 'to-concealed'));
      hand.melds.forEach(function (m, mi) {
        if (f.zone === 'meld' && f.meld === mi) return;
        actions.appendChild(actionButton('To meld ' + (mi + 1), '', function () { moveTo(f, 'meld:' + mi); }, 'to-meld-' + (mi + 1)));
      });
      actions.appendChild(actionButton('To new meld', '', function () { moveTo(f, 'new-meld'); }, 'to-new-meld'));
      if (f.zone !== 'flowers' && suits.indexOf('f') >= 0) actions.appendChild(actionButton('To flowers', '', function () { moveTo(f, 'flowers'); }, 'to-flowers'));
      actions.appendChild(actionButton('Delete', 'danger', function () {
        f.list.splice(f.index, 1);
        if (hand.winId === item.id) hand.winId = null;
        closeSheet(); changed();
      }, 'delete'));
      if (d && d.top3 && d.top3.length) {
        var head = document.createElement('h3');
        head.textContent = 'Best guesses';
        guesses.appendChild(head);
        var wrap = document.createElement('div');
        wrap.className = 'guesses';
        d.top3.forEach(function (g) {
          if (!isTileCode(g[0])) return;
          var b = document.createElement('button');
          b.type = 'button';
          b.className = 'button guess';
          b.setAttribute('data-guess', g[0]);
          b.appendChild(tileEl(g[0]));
          var pct = document.createElement('span');
          pct.className = 'pct';
          pct.textContent = tileName(g[0]) + ' ' + Math.round(Number(g[1]) * 100) + '%';
          b.appendChild(pct);
          b.addEventListener('click', function () { setCode(item, g[0]); });
          wrap.appendChild(b);
        });
        guesses.appendChild(wrap);
      }
      renderPalette(suits, function (code) { setCode(item, code); });
    } else if (sheet.mode === 'add') {
      title.textContent = 'Add to ' + zoneTitle(sheet.zone);
      var list = document.createElement('span');
      list.className = 'tiles inline';
      sheet.added.forEach(function (c) { list.appendChild(tileEl(c, { small: true })); });
      current.appendChild(list);
      if (!sheet.added.length) current.appendChild(document.createTextNode('Tap tiles to add them.'));
      actions.appendChild(actionButton('Done', 'primary', closeSheet, 'done'));
      var order = sheet.zone === 'flowers' ? BONUS_SUITS + suits : suits;
      renderPalette(order, function (code) {
        var target = zoneList(sheet.zone);
        var meld = sheet.zone.indexOf('meld:') === 0 ? hand.melds[Number(sheet.zone.split(':')[1])] : null;
        if (meld && meld.unknown && !target.length) {  // a face-down kong: four of the tile
          meld.unknown = false;
          for (var k = 0; k < 4; k++) target.push(newItem(code));
          closeSheet(); changed();
          return;
        }
        if (sheet.zone === 'new-meld') sheet.zone = 'meld:' + (hand.melds.length - 1);
        target.push(newItem(code));
        sheet.added.push(code);
        changed();
        renderSheet();
      });
    } else {
      title.textContent = sheet.title;
      var pick = sheet.onPick;
      actions.appendChild(actionButton('None', '', function () { pick(null); closeSheet(); }, 'none'));
      renderPalette(sheet.suits || suits, function (code) { pick(code); closeSheet(); });
    }
    $('sheet').hidden = false;
    renderHand();
    drawOverlay();
  }

  function renderPalette(suits, onPick) {
    var pal = $('sheet-palette');
    pal.innerHTML = '';
    var seen = {};
    suits.split('').forEach(function (s) {
      if (seen[s] || !SUIT_SIZES[s]) return;
      seen[s] = true;
      if (variantSuits().indexOf(s) < 0) return;
      var head = document.createElement('h3');
      head.textContent = SUIT_TITLES[s];
      pal.appendChild(head);
      var row = document.createElement('div');
      row.className = 'tiles';
      for (var n = 1; n <= SUIT_SIZES[s]; n++) {
        if (!variantHas(n + s)) continue;
        (function (code) {
          var b = tileEl(code, { button: true });
          b.addEventListener('click', function () { onPick(code); });
          row.appendChild(b);
        })(n + s);
      }
      pal.appendChild(row);
    });
  }

  /* The player names the tile: it is no longer an unsure guess. */
  function setCode(item, code) {
    item.code = code;
    item.edited = true;
    closeSheet();
    changed();
  }

  function moveTo(found, zone) {
    found.list.splice(found.index, 1);
    if (zone !== 'concealed' && hand.winId === found.item.id) hand.winId = null;
    zoneList(zone).push(found.item);
    closeSheet();
    changed();
  }

  // ------------------------------------------------------------------ context form
  function segSeats(el, value, onPick, disabled, choices) {
    el.innerHTML = '';
    (choices || variantSeats()).forEach(function (s) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = SEAT_NAMES[s];
      b.setAttribute('data-value', s);
      b.setAttribute('aria-pressed', s === value ? 'true' : 'false');
      if (disabled && disabled.indexOf(s) >= 0) b.disabled = true;
      b.addEventListener('click', function () { onPick(s); });
      el.appendChild(b);
    });
  }

  /* A whole number: - and + step it by one, and the number itself can be typed (a rate of 200 or
     an uma of 15000 is not reached by tapping). */
  function stepper(el, value, min, max, onChange) {
    el.innerHTML = '';
    var minus = actionButton('\u2212', '', function () { if (value > min) onChange(value - 1); });
    minus.setAttribute('aria-label', 'less');
    var out = document.createElement('input');
    out.type = 'number';
    out.inputMode = 'numeric';
    out.min = String(min); out.max = String(max); out.step = '1';
    out.value = String(value);
    out.setAttribute('aria-label', 'value');
    out.addEventListener('change', function () {
      var n = Math.round(Number(out.value));
      if (!isFinite(n) || out.value === '') { out.value = String(value); return; }
      n = Math.min(max, Math.max(min, n));
      if (n !== value) onChange(n); else out.value = String(value);
    });
    var plus = actionButton('+', '', function () { if (value < max) onChange(value + 1); });
    plus.setAttribute('aria-label', 'more');
    el.appendChild(minus); el.appendChild(out); el.appendChild(plus);
  }

  /* Keep every seat choice among the variant's seats, and the discarder apart from the winner. */
  function fixSeats() {
    var seats = variantSeats();
    ['winner', 'dealer', 'round', 'discarder'].forEach(function (k) {
      if (seats.indexOf(ctx[k]) < 0) ctx[k] = seats[0];
    });
    if (variantRounds().indexOf(ctx.round) < 0) ctx.round = variantRounds()[0];
    if (ctx.discarder === ctx.winner) ctx.discarder = seats[(seats.indexOf(ctx.winner) + 1) % seats.length];
  }

  function setCtx(key, value) {
    ctx[key] = value;
    fixSeats();
    saveContext();
    renderContext();
    scheduleScore();
  }

  function variantSpec() { return variants[ctx.variant] || null; }

  function usesIndicator(spec) {
    return !!(spec && spec.uses_indicator);
  }

  function valuesFor(store, specs) {
    var v = ctx.variant;
    if (!ctx[store][v] || typeof ctx[store][v] !== 'object') ctx[store][v] = {};
    var vals = ctx[store][v];
    (specs || []).forEach(function (o) { if (vals[o.name] === undefined) vals[o.name] = cloneValue(o.default); });
    return vals;
  }

  /* Equal as settings: an empty tile list is the same whether written [] or "". */
  function sameValue(a, b) {
    var norm = function (v) { return Array.isArray(v) && !v.length ? '' : JSON.stringify(v); };
    return norm(a) === norm(b);
  }

  function cloneValue(v) { return v && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v; }

  function renderContext() {
    segSeats($('winner'), ctx.winner, function (s) { setCtx('winner', s); });
    var winBy = $('win-by').querySelectorAll('button');
    for (var i = 0; i < winBy.length; i++) {
      var self = winBy[i].getAttribute('data-value') === 'self';
      winBy[i].setAttribute('aria-pressed', self === !!ctx.selfDrawn ? 'true' : 'false');
    }
    $('discarder-field').hidden = !!ctx.selfDrawn;
    segSeats($('discarder'), ctx.discarder, function (s) { setCtx('discarder', s); }, [ctx.winner]);
    segSeats($('dealer'), ctx.dealer, function (s) { setCtx('dealer', s); });
    stepper($('dealer-streak'), Number(ctx.streak) || 0, 0, 99, function (n) { setCtx('streak', n); });
    segSeats($('round-wind'), ctx.round, function (s) { setCtx('round', s); }, null, variantRounds());
    var spec = variantSpec();
    var indicator = usesIndicator(spec);
    $('indicator-field').hidden = !indicator;
    if (indicator) {
      $('indicator-label').textContent = humanName(spec.wilds || 'wild') + ' indicator';
      tileInput($('indicator'), ctx.indicator, false, 'Indicator tile', function (v) { setCtx('indicator', v); });
    }
    renderSpecs($('flags'), 'flags', spec ? spec.flags : []);
    var active = [];
    if (spec) {
      var fv = valuesFor('flags', spec.flags);
      spec.flags.forEach(function (f) {
        if (!sameValue(fv[f.name], f.default)) active.push(humanName(f.name));
      });
    }
    $('situations').hidden = !(spec && spec.flags.length);
    $('flags-summary').textContent = active.length ? '(' + active.join(', ') + ')' : '(none)';
    if (active.length) $('situations').open = true;
    renderSpecs($('options'), 'options', spec ? spec.options : []);
    var changedCount = 0;
    if (spec) {
      var vals = valuesFor('options', spec.options);
      spec.options.forEach(function (o) { if (!sameValue(vals[o.name], o.default)) changedCount++; });
    }
    $('rules-summary').textContent = changedCount ? '(' + changedCount + ' changed from the defaults)' : '(defaults)';
  }

  function tileInput(el, value, multiple, title, onChange) {
    el.innerHTML = '';
    var row = document.createElement('div');
    row.className = 'tiles';
    var codes = multiple ? parseTiles(value) : (isTileCode(value) ? [value] : []);
    codes.forEach(function (c, i) {
      var b = tileEl(c, { button: true });
      b.addEventListener('click', function () {
        if (!multiple) { openPick(title, function (code) { onChange(code); }); return; }
        var rest = codes.slice(); rest.splice(i, 1);
        onChange(formatTiles(rest));
      });
      row.appendChild(b);
    });
    if (multiple || !codes.length) {
      var add = document.createElement('button');
      add.type = 'button';
      add.className = 'tile add';
      add.textContent = '+';
      add.setAttribute('aria-label', 'Add ' + title);
      add.addEventListener('click', function () {
        openPick(title, function (code) {
          if (!code) { if (!multiple) onChange(null); return; }
          onChange(multiple ? formatTiles(codes.concat([code])) : code);
        });
      });
      row.appendChild(add);
    }
    el.appendChild(row);
    if (multiple && codes.length) {
      var hint = document.createElement('span');
      hint.className = 'doc';
      hint.textContent = 'tap a tile to remove it';
      el.appendChild(hint);
    }
  }

  function specKind(o) {
    var t = String(o.type || '').toLowerCase();
    if (o.choices && o.choices.length) return 'choice';
    if (t.indexOf('bool') === 0) return 'bool';
    if (t.indexOf('int') === 0) return 'int';
    if (t === 'float' || t === 'number') return 'number';
    if (t === 'tiles') return 'tiles';
    if (t === 'list' && Array.isArray(o.default)) return 'list';
    if (t === 'tile') return 'tile';
    return 'text';
  }

  function humanName(name) {
    if (name === null || name === undefined || name === '') return 'None';
    var s = String(name).replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  function renderSpecs(container, store, specs) {
    container.innerHTML = '';
    var vals = valuesFor(store, specs);
    (specs || []).forEach(function (o) {
      var wrap = document.createElement('div');
      wrap.className = 'option';
      wrap.setAttribute('data-option', o.name);
      var kind = specKind(o);
      var set = function (v) {
        vals[o.name] = v;
        saveContext();
        renderContext();
        scheduleScore();
      };
      var label = document.createElement('span');
      label.className = 'label';
      label.textContent = humanName(o.name);
      if (kind === 'bool') {
        var t = document.createElement('button');
        t.type = 'button';
        t.className = 'toggle';
        t.setAttribute('aria-pressed', vals[o.name] ? 'true' : 'false');
        t.setAttribute('data-name', o.name);
        t.textContent = humanName(o.name);
        t.addEventListener('click', function () { set(!vals[o.name]); });
        wrap.appendChild(t);
      } else {
        wrap.appendChild(label);
        if (kind === 'int') {
          var holder = document.createElement('div');
          holder.className = 'stepper';
          stepper(holder, Number(vals[o.name]) || 0, 0, 1000000, set);
          wrap.appendChild(holder);
        } else if (kind === 'choice' && o.choices.length <= 4) {
          var seg = document.createElement('div');
          seg.className = 'seg';
          o.choices.forEach(function (c) {
            var b = actionButton(humanName(c), '', function () { set(c); });
            b.setAttribute('aria-pressed', String(vals[o.name]) === String(c) ? 'true' : 'false');
            b.setAttribute('data-value', c);
            seg.appendChild(b);
          });
          wrap.appendChild(seg);
        } else if (kind === 'choice') {
          var sel = document.createElement('select');
          sel.className = 'option-select';
          o.choices.forEach(function (c) {
            var opt = document.createElement('option');
            opt.value = String(c); opt.textContent = humanName(c);
            if (String(vals[o.name]) === String(c)) opt.selected = true;
            sel.appendChild(opt);
          });
          sel.addEventListener('change', function () {
            var picked = o.choices.filter(function (c) { return String(c) === sel.value; })[0];
            set(picked);
          });
          wrap.appendChild(sel);
        } else if (kind === 'list') {
          // one number per seat (e.g. chips held before the hand)
          var current = Array.isArray(vals[o.name]) ? vals[o.name].slice() : cloneValue(o.default);
          // one number per seat where the rule says so; else per place (riichi's uma: 1st, 2nd)
          var perSeat = /seat/i.test(o.doc || '') && current.length === SEATS.length;
          current.forEach(function (n, i) {
            var line = document.createElement('div');
            line.className = 'seat-line';
            line.appendChild(el('span', 'seat-name', perSeat ? (SEAT_NAMES[SEATS[i]] || String(i + 1))
                                                             : (['1st', '2nd', '3rd', '4th'][i] || String(i + 1))));
            var st = document.createElement('div');
            st.className = 'stepper';
            stepper(st, Number(n) || 0, 0, 1000000, function (v) {
              var next = current.slice(); next[i] = v; set(next);
            });
            line.appendChild(st);
            wrap.appendChild(line);
          });
        } else if (kind === 'tiles' || kind === 'tile') {
          var ti = document.createElement('div');
          tileInput(ti, vals[o.name], kind === 'tiles', humanName(o.name), set);
          wrap.appendChild(ti);
        } else {
          var inp = document.createElement('input');
          inp.className = 'option-input';
          inp.value = vals[o.name] === null || vals[o.name] === undefined ? '' : String(vals[o.name]);
          if (kind === 'number') inp.inputMode = 'decimal';
          inp.addEventListener('change', function () {
            var v = inp.value.trim();
            set(kind === 'number' ? (v === '' ? null : Number(v)) : v);
          });
          wrap.appendChild(inp);
        }
      }
      if (o.doc) {
        var doc = document.createElement('span');
        doc.className = 'doc';
        doc.textContent = o.doc;
        wrap.appendChild(doc);
      }
      container.appendChild(wrap);
    });
  }

  // ------------------------------------------------------------------ scoring
  function buildRequest() {
    var spec = variantSpec();
    var req = {
      variant: ctx.variant,
      concealed: formatTiles(hand.concealed.map(function (t) { return t.code; })),
      melds: hand.melds.filter(function (m) { return m.tiles.length; }).map(function (m) {
        return { tiles: formatTiles(m.tiles.map(function (t) { return t.code; })), concealed: !!m.concealed };
      }),
      flowers: formatTiles(hand.flowers.map(function (t) { return t.code; })),
      self_drawn: !!ctx.selfDrawn,
      winner: ctx.winner,
      dealer: ctx.dealer,
      dealer_streak: Number(ctx.streak) || 0,
      round_wind: ctx.round
    };
    var win = winningItem();
    if (win) req.winning_tile = win.code;
    if (!ctx.selfDrawn) req.discarder = ctx.discarder;
    if (usesIndicator(spec) && ctx.indicator) req.indicator = ctx.indicator;
    if (spec) {
      var flags = valuesFor('flags', spec.flags);
      spec.flags.forEach(function (f) { if (flags[f.name] !== undefined) req[f.name] = flags[f.name]; });
      var opts = valuesFor('options', spec.options), options = {};
      spec.options.forEach(function (o) { if (opts[o.name] !== undefined) options[o.name] = opts[o.name]; });
      req.options = options;
    }
    return req;
  }

  /* The hand or its context changed, or it could not be scored: what was scored before is not what
     the page shows any more, so session.js takes its Record button away until the next score. */
  function unscored() {
    document.dispatchEvent(new CustomEvent('tilelens:unscored'));
  }

  function scheduleScore() {
    unscored();
    window.clearTimeout(scoreTimer);
    scoreTimer = window.setTimeout(runScore, SCORE_DELAY_MS);
    $('result').setAttribute('data-state', 'busy');
  }

  function runScore() {
    var resultEl = $('result');
    if (!ctx.variant || !(hand.concealed.length || hand.melds.length)) {
      resultEl.setAttribute('data-state', 'empty');
      $('result-body').innerHTML = '<p class="muted">Photograph a hand, or add tiles by hand, to see the score.</p>';
      return;
    }
    var seq = ++scoreSeq;
    var req = buildRequest();
    request('POST', '/api/score', req).then(function (res) {
      if (seq !== scoreSeq) return;
      if (res.status === 200 && res.data) {
        renderResult(res.data, req);
        resultEl.setAttribute('data-state', 'ready');
        if (!res.data.winning && handSize() % 3 === 2) offerOtherGuesses(seq);
        // session.js offers its one-tap "Record" button for each scored hand, with the scan's photo
        document.dispatchEvent(new CustomEvent('tilelens:scored', {
          detail: { request: req, result: res.data, photo: scannedPhoto } }));
      } else {
        renderError(errorMessage(res.data, 'Scoring failed (HTTP ' + res.status + ').'));
        resultEl.setAttribute('data-state', 'error');
        unscored();
      }
    }, function (err) {
      if (seq !== scoreSeq) return;
      renderError(err.message);
      resultEl.setAttribute('data-state', 'error');
      unscored();
    });
  }

  /* A complete hand that does not win may hold a misread tile: the scan's other guesses for the
     tiles the player has not set, each tried alone (one POST /api/score/many), and those that
     make the hand a winning one offered above the result, likeliest first. */
  function otherGuesses() {
    var out = [];
    allItems().forEach(function (f) {
      var it = f.item, d = detection(it);
      if (!d || it.edited || !d.top3) return;
      d.top3.forEach(function (g) {
        var code = g[0], p = Number(g[1]);
        if (code === it.code || !isTileCode(code) || !variantHas(code) || !(p >= OTHER_GUESS_LEAST)) return;
        out.push({ item: it, code: code, p: p });
      });
    });
    out.sort(function (a, b) { return b.p - a.p; });
    return out.slice(0, OTHER_GUESSES_MAX);
  }

  function offerOtherGuesses(seq) {
    var guesses = otherGuesses();
    if (!guesses.length) return;
    var reqs = guesses.map(function (g) {
      var was = g.item.code;
      g.item.code = g.code;
      var req = buildRequest();
      g.item.code = was;
      return req;
    });
    request('POST', '/api/score/many', { requests: reqs }).then(function (res) {
      if (seq !== scoreSeq || res.status !== 200 || !res.data || !Array.isArray(res.data.results)) return;
      var wins = [];
      res.data.results.forEach(function (x, i) {
        if (x && x.result && x.result.winning) wins.push({ g: guesses[i], r: x.result });
      });
      renderOtherGuesses(wins);
    }, function () { /* a hint only: the result above stands without it */ });
  }

  function renderOtherGuesses(wins) {
    var box = $('other-guesses');
    if (!box || !wins.length) return;
    box.innerHTML = '';
    box.appendChild(el('h3', '', 'A misread tile?'));
    box.appendChild(el('p', 'muted', 'With one of the scan\'s other guesses this is a winning hand. Tap to use it:'));
    wins.slice(0, OTHER_GUESSES_SHOWN).forEach(function (w) {
      var g = w.g, sc = w.r.score && typeof w.r.score === 'object' ? w.r.score : null;
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'button other-guess';
      b.setAttribute('data-from', g.item.code);
      b.setAttribute('data-to', g.code);
      b.appendChild(tileEl(g.item.code, { small: true }));
      b.appendChild(el('span', 'arrow', '\u2192'));
      b.appendChild(tileEl(g.code, { small: true }));
      b.appendChild(el('span', 'what', tileName(g.item.code) + ' as ' + tileName(g.code) + ' (' +
        Math.round(g.p * 100) + '% guess)' + (sc ? ': ' + sc.total + (sc.unit ? ' ' + sc.unit : '') : '')));
      b.addEventListener('click', function () { setCode(g.item, g.code); });
      box.appendChild(b);
    });
    box.hidden = false;
  }

  function renderError(message) {
    var body = $('result-body');
    body.innerHTML = '';
    var p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    body.appendChild(p);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* Show a value from the result: tile codes as tiles, lists and objects spelled out. */
  function valueNode(v) {
    if (isTileCode(v)) return tileEl(v, { small: true });
    if (typeof v === 'string' && /^(\d+[mpszfahj])+$/.test(v)) {
      var row = el('span', 'tiles inline');
      parseTiles(v).forEach(function (c) { row.appendChild(tileEl(c, { small: true })); });
      return row;
    }
    if (Array.isArray(v) && v.length && v.every(isTileCode)) {
      var tiles = el('span', 'tiles inline');
      v.forEach(function (c) { tiles.appendChild(tileEl(c, { small: true })); });
      return tiles;
    }
    if (Array.isArray(v)) {
      var span = el('span');
      v.forEach(function (x, i) { if (i) span.appendChild(document.createTextNode(', ')); span.appendChild(valueNode(x)); });
      if (!v.length) span.textContent = 'none';
      return span;
    }
    if (v && typeof v === 'object') {
      var box = el('span');
      Object.keys(v).forEach(function (k, i) {
        if (i) box.appendChild(document.createTextNode('; '));
        box.appendChild(document.createTextNode(humanName(k) + ': '));
        box.appendChild(valueNode(v[k]));
      });
      return box;
    }
    if (typeof v === 'boolean') return document.createTextNode(v ? 'yes' : 'no');
    return document.createTextNode(v === null || v === undefined ? '\u2014' : String(v));
  }

  /* The engine's joker status: {name, tile, indicator, count, uses: [{tile, as}], stand_ins: [{tile, as}]}. */
  function jokerNode(j) {
    if (!j || typeof j !== 'object' || Array.isArray(j)) return valueNode(j);
    var ul = el('ul', 'jokers');
    var head = el('li');
    if (j.tile) {
      head.appendChild(document.createTextNode(humanName(j.name || 'wild') + ' '));
      head.appendChild(valueNode(j.tile));
      if (j.indicator) {
        head.appendChild(document.createTextNode(' (indicator '));
        head.appendChild(valueNode(j.indicator));
        head.appendChild(document.createTextNode(')'));
      }
      head.appendChild(document.createTextNode(' \u00d7 ' + (j.count || 0) + ' in the hand'));
    } else {
      head.textContent = 'no wild tiles in this variant';
    }
    ul.appendChild(head);
    function line(u, attr, verb) {  // "<tile> became <tile>"
      var li = el('li');
      li.setAttribute(attr, (u.tile || '') + '>' + (u.as || ''));
      li.appendChild(valueNode(u.tile));
      li.appendChild(document.createTextNode(verb));
      li.appendChild(valueNode(u.as));
      ul.appendChild(li);
    }
    (j.uses || []).forEach(function (u) { line(u, 'data-joker', ' became '); });
    // tiles that count as another at face value, not wild (Wenzhou's White for the caishen's tile)
    (j.stand_ins || []).forEach(function (u) { line(u, 'data-stand-in', ' counts as '); });
    return ul;
  }

  function transfers(payments) {
    var debtors = [], creditors = [];
    SEATS.forEach(function (s) {
      var v = Number(payments[s]) || 0;
      if (v < 0) debtors.push({ seat: s, left: -v });
      if (v > 0) creditors.push({ seat: s, left: v });
    });
    var out = [], ci = 0;
    debtors.forEach(function (d) {
      while (d.left > 0 && ci < creditors.length) {
        var c = creditors[ci], n = Math.min(d.left, c.left);
        out.push({ from: d.seat, to: c.seat, amount: n });
        d.left -= n; c.left -= n;
        if (c.left === 0) ci++;
      }
    });
    return out;
  }

  function renderResult(r, req) {
    var body = $('result-body');
    body.innerHTML = '';
    var hasWaits = Array.isArray(r.waits) && r.waits.length;
    var verdict = el('p', 'verdict ' + (r.winning ? 'win' : hasWaits ? 'wait' : 'no'));
    verdict.setAttribute('data-winning', r.winning ? 'true' : 'false');
    verdict.textContent = r.winning ? 'Winning hand' : (hasWaits ? 'Not complete: waiting' : 'Not a winning hand');
    body.appendChild(verdict);
    if (r.reason) body.appendChild(el('p', 'reason', r.reason));
    var others = el('div', 'other-guesses');
    others.id = 'other-guesses';
    others.hidden = true;
    body.appendChild(others);

    if (r.payments && typeof r.payments === 'object' && Object.keys(r.payments).length) {
      body.appendChild(el('h3', '', 'Payments'));
      var grid = el('div', 'payments');
      variantSeats().forEach(function (s) {
        if (r.payments[s] === undefined) return;
        var v = Number(r.payments[s]);
        var cell = el('div', 'pay ' + (v > 0 ? 'plus' : v < 0 ? 'minus' : 'zero'));
        cell.setAttribute('data-seat', s);
        cell.setAttribute('data-amount', String(v));
        var tags = [];
        if (s === req.winner) tags.push('winner');
        if (s === req.dealer) tags.push('dealer');
        cell.appendChild(el('span', 'seat', SEAT_NAMES[s] + (tags.length ? ' \u00b7 ' + tags.join(', ') : '')));
        cell.appendChild(el('span', 'amount', (v > 0 ? '+' : v < 0 ? '\u2212' : '') + Math.abs(v)));
        grid.appendChild(cell);
      });
      body.appendChild(grid);
      var ul = el('ul', 'transfers');
      transfers(r.payments).forEach(function (t) {
        var li = el('li');
        li.appendChild(document.createTextNode(SEAT_NAMES[t.from] + ' pays ' + SEAT_NAMES[t.to] + ' '));
        li.appendChild(el('span', 'n', t.amount));
        ul.appendChild(li);
      });
      body.appendChild(ul);
    }


    var facts = el('dl', 'facts');
    function fact(name, node, key) {
      var dt = el('dt', '', name), dd = el('dd');
      if (key) dd.setAttribute('data-fact', key);
      dd.appendChild(node);
      facts.appendChild(dt); facts.appendChild(dd);
    }
    if (r.waits !== undefined && r.waits !== null && (!r.winning || hasWaits)) {
      fact('Waits', hasWaits ? valueNode(r.waits) : document.createTextNode('none'), 'waits');
    }
    if (r.form) fact('Form', valueNode(r.form), 'form');
    if (typeof r.shanten === 'number' && r.shanten > 0) fact('Tiles from ready', document.createTextNode(String(r.shanten)), 'shanten');
    if (r.reading && r.reading.groups && r.reading.groups.length) {
      var groups = el('span', 'groups');
      r.reading.groups.forEach(function (g) {
        var row = valueNode(g.tiles);
        if (row.className) row.className += ' group';
        groups.appendChild(row);
        groups.appendChild(document.createTextNode(' '));
      });
      fact('Reading', groups, 'reading');
    }
    if (r.flowers !== undefined && r.flowers !== null && (r.flowers || variantSuits().indexOf('f') >= 0)) {
      fact('Flowers', valueNode(r.flowers), 'flowers');
    }
    if (r.jokers !== undefined && r.jokers !== null && (r.jokers.tile || (r.jokers.uses && r.jokers.uses.length))) {
      fact('Wild tiles', jokerNode(r.jokers), 'jokers');
    }
    var sc = r.score && typeof r.score === 'object' ? r.score : null;
    if (r.score && !sc) fact('Score', valueNode(r.score), 'score');
    if (sc && sc.han !== undefined) fact('Han / fu', document.createTextNode(sc.han + ' han ' + (sc.fu !== undefined ? sc.fu + ' fu' : '')), 'hanfu');
    if (r.chips !== undefined && r.chips !== null && !(Array.isArray(r.chips) && !r.chips.length)) fact('Chips', valueNode(r.chips), 'chips');
    if (facts.childNodes.length) body.appendChild(facts);

    if (sc && sc.items && sc.items.length) {
      var table = el('table', 'breakdown');
      sc.items.forEach(function (it) {
        var tr = el('tr');
        tr.appendChild(el('td', '', it.name));
        tr.appendChild(el('td', 'v', it.value));
        table.appendChild(tr);
      });
      var tot = el('tr', 'total');
      tot.appendChild(el('td', '', 'Total'));
      tot.appendChild(el('td', 'v', sc.total + (sc.unit ? ' ' + sc.unit : '')));
      tot.setAttribute('data-total', sc.total);
      table.appendChild(tot);
      body.appendChild(table);
    }

    if (r.explain && r.explain !== r.reason) {
      var det = el('details', 'explain');
      det.appendChild(el('summary', '', 'How this was scored'));
      var lines = Array.isArray(r.explain) ? r.explain : [r.explain];
      lines.forEach(function (line) {
        var p = el('p');
        p.appendChild(typeof line === 'string' ? document.createTextNode(line) : valueNode(line));
        det.appendChild(p);
      });
      body.appendChild(det);
    }
  }

  // ------------------------------------------------------------------ start
  function renderVariants() {
    var sel = $('variant');
    sel.innerHTML = '';
    Object.keys(variants).forEach(function (name) {
      var opt = document.createElement('option');
      opt.value = name;
      opt.textContent = variants[name].title || humanName(name);
      sel.appendChild(opt);
    });
    if (!variants[ctx.variant]) ctx.variant = Object.keys(variants)[0] || null;
    sel.value = ctx.variant;
  }

  function wire() {
    $('photo').addEventListener('change', onPhoto);
    $('variant').addEventListener('change', function () { setCtx('variant', $('variant').value); renderHand(); });
    var winBy = $('win-by').querySelectorAll('button');
    for (var i = 0; i < winBy.length; i++) {
      winBy[i].addEventListener('click', function (e) {
        setCtx('selfDrawn', e.currentTarget.getAttribute('data-value') === 'self');
      });
    }
    $('add-meld').addEventListener('click', function () { openAdd('new-meld'); });
    $('clear-hand').addEventListener('click', function () {
      hand = { concealed: [], melds: [], flowers: [], winId: null, winAuto: true };
      scan = null;
      scannedPhoto = null;
      $('photo-view').hidden = true;
      $('scan-info').hidden = true;
      changed();
    });
    $('reset-options').addEventListener('click', function () {
      delete ctx.options[ctx.variant];
      saveContext(); renderContext(); scheduleScore();
    });
    var closers = document.querySelectorAll('[data-close]');
    for (var j = 0; j < closers.length; j++) closers[j].addEventListener('click', closeSheet);
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && sheet) closeSheet(); });
  }

  /* A recorded session announces the next hand's context (dealer, streak, round,
     the variant's carried flags such as riichi sticks) with a 'tilelens:context'
     event; the form takes it over, so what the phone scores is what gets recorded. */
  function applyCarriedContext(next) {
    if (!next || typeof next !== 'object') return;
    if (next.variant && variants[next.variant] && next.variant !== ctx.variant) {
      ctx.variant = next.variant;
      renderVariants();
    }
    if (next.dealer) ctx.dealer = next.dealer;
    if (typeof next.dealer_streak === 'number') ctx.streak = next.dealer_streak;
    if (next.round_wind) ctx.round = next.round_wind;
    var spec = variantSpec();
    if (spec) {
      var flags = valuesFor('flags', spec.flags);
      spec.flags.forEach(function (f) { if (next[f.name] !== undefined) flags[f.name] = cloneValue(next[f.name]); });
      if (next.options && typeof next.options === 'object') {  // a session's table rules, the defaults elsewhere
        var opts = valuesFor('options', spec.options);
        spec.options.forEach(function (o) {
          opts[o.name] = cloneValue(next.options[o.name] !== undefined ? next.options[o.name] : o.default);
        });
      }
    }
    fixSeats();
    saveContext();
    renderContext();
    scheduleScore();
  }

  function start() {
    wire();
    document.addEventListener('tilelens:context', function (e) {
      if (Object.keys(variants).length) applyCarriedContext(e.detail);
      else carriedContext = e.detail;  // applied once the variants have loaded
    });
    loadHand();
    renderHand();
    request('GET', '/api/variants').then(function (res) {
      if (res.status === 401) return;
      if (res.status !== 200 || !res.data) {
        renderError(errorMessage(res.data, 'The server did not list its variants (HTTP ' + res.status + ').'));
        return;
      }
      variants = res.data;
      renderVariants();
      fixSeats();
      saveContext();
      renderContext();
      renderHand();
      if (hand.concealed.length || hand.melds.length) scheduleScore();
      if (carriedContext) { applyCarriedContext(carriedContext); carriedContext = null; }
      document.body.setAttribute('data-ready', 'true');
    }, function (err) { renderError(err.message); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
