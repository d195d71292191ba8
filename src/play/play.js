// zogkit play: the page's script. It only talks to the JSON API of the server that served it.
'use strict';

let game = null;      // GET /api/game
let state = null;     // the position, history and end
let moves = [];       // GET /api/moves
let selected = null;  // the position whose piece is selected
let held = null;      // the piece in hand selected to drop: {player, piece}
let session = null;   // state.session when the page loaded: another one means the game was dropped
let busy = false;
const sides = {};     // player name -> 'person' | 'random'
const PALETTE = ['#f5f5f5', '#222222', '#c62828', '#1565c0', '#2e7d32', '#f9a825', '#6a1b9a', '#00838f'];

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function cellOf(name) {
  return document.querySelector('.cell[data-pos="' + CSS.escape(name) + '"]');
}

async function load() {
  game = await api('GET', 'api/game');
  document.title = game.title + ' — zogkit play';
  $('title').textContent = game.title;
  $('file').textContent = game.file;
  const board = $('board');
  board.style.width = game.board.width + 'px';
  board.style.height = game.board.height + 'px';
  if (game.board.image) {
    const img = document.createElement('img');
    img.className = 'bg';
    img.src = game.board.image;
    img.alt = 'board';
    board.appendChild(img);
  } else {
    board.classList.add('plain');
  }
  const unused = game.board.pictures || [];
  $('note').textContent = [game.board.note,
    unused.length ? unused.length + " of the author's pictures not used (hover to see why); drawn instead." : '']
    .filter(Boolean).join(' ');
  $('note').title = unused.join('\n');
  for (const p of game.positions) {
    const [x1, y1, x2, y2] = p.rect;
    const d = document.createElement('div');
    d.className = 'cell';
    d.dataset.pos = p.name;
    d.title = p.name;
    d.style.left = x1 + 'px';
    d.style.top = y1 + 'px';
    d.style.width = Math.max(4, x2 - x1) + 'px';
    d.style.height = Math.max(4, y2 - y1) + 'px';
    d.addEventListener('click', () => clicked(p.name));
    board.appendChild(d);
  }
  const sidesEl = $('sides');
  game.players.forEach((pl) => {
    sides[pl] = 'person';
    const l = document.createElement('label');
    l.textContent = pl + ': ';
    const s = document.createElement('select');
    s.dataset.player = pl;
    const choices = [['person', 'person'], ['random', 'random player']];
    if (game.players.length === 2) choices.push(['computer', 'computer (alpha-beta, 1 s a move)']);
    for (const [v, t] of choices) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = t;
      s.appendChild(o);
    }
    s.addEventListener('change', () => { sides[pl] = s.value; saveLink(); auto(); });
    l.appendChild(s);
    sidesEl.appendChild(l);
  });
  $('goals').textContent = game.goals.length ? 'Goals: ' + game.goals.join('; ') : 'No goals';
  await refresh(game.state);
}

async function refresh(newState) {
  state = newState || (await api('GET', 'api/state'));
  if (session === null) session = state.session;
  if (state.session !== session) {
    session = state.session;
    $('note').textContent = 'The server dropped this game to make room for others (a served ' +
      'catalogue keeps 32 at once): its moves were lost, and it starts again.';
  }
  moves = (await api('GET', 'api/moves')).moves;
  selected = null;
  held = null;
  render();
}

function render() {
  const board = $('board');
  board.querySelectorAll('.piece, .disc').forEach((e) => e.remove());
  board.querySelectorAll('.cell').forEach((c) => c.classList.remove('last', 'sel', 'target', 'occupied'));
  for (const b of state.board) {
    const cell = cellOf(b.at);
    if (!cell) continue;
    cell.classList.add('occupied');
    cell.appendChild(pieceElement(b.player, b.piece));
  }
  if (state.last) {
    for (const p of [state.last.from, state.last.to]) {
      if (p && cellOf(p)) cellOf(p).classList.add('last');
    }
  }
  if (selected) {
    cellOf(selected)?.classList.add('sel');
    for (const m of moves.filter((m) => m.from === selected && m.to)) cellOf(m.to)?.classList.add('target');
  }
  if (held) {
    for (const m of dropsOf(held.player, held.piece)) cellOf(m.to)?.classList.add('target');
  }
  renderHands();
  const hist = $('history');
  hist.innerHTML = '';
  for (const h of state.history) {
    const li = document.createElement('li');
    li.textContent = h.number + '. ' + h.notation;
    hist.appendChild(li);
  }
  for (const n of state.upcoming) {
    const li = document.createElement('li');
    li.className = 'redo';
    li.textContent = n;
    hist.appendChild(li);
  }
  // The last move played in view (the list scrolls, never the page).
  const played = hist.querySelectorAll('li:not(.redo)');
  const lastPlayed = played[played.length - 1];
  hist.scrollTop = lastPlayed ? lastPlayed.offsetTop - hist.clientHeight / 2 : 0;
  $('status').textContent = state.end ? 'Game over' : state.stopped ? 'Stopped' : state.to_move + ' to move';
  $('result').textContent = state.end ? state.end.text : '';
  $('error').textContent = state.stopped || state.warning || '';
  $('undo').disabled = $('first').disabled = state.undo === 0;
  $('redo').disabled = $('last').disabled = state.redo === 0;
  const pass = moves.find((m) => m.pass);
  $('pass').hidden = !pass;
  const all = $('all');
  all.innerHTML = '';
  for (const m of moves) {
    const o = document.createElement('option');
    o.value = m.index;
    o.textContent = m.notation;
    all.appendChild(o);
  }
  $('playall').disabled = moves.length === 0;
  saveLink();
}

// A piece as drawn: its picture, else a lettered disc in the player's colour.
function pieceElement(player, piece) {
  const k = game.pieces.findIndex((p) => p.name === piece);
  const pi = game.players.indexOf(player);
  const src = k >= 0 ? game.pieces[k].images[pi] : null;
  if (src) {
    const img = document.createElement('img');
    img.className = 'piece';
    img.src = src;
    img.alt = player + ' ' + piece;
    return img;
  }
  const d = document.createElement('div');
  d.className = 'disc piece';
  d.style.background = PALETTE[pi % PALETTE.length];
  d.style.color = pi % 2 ? '#fff' : '#000';
  d.textContent = (k >= 0 && game.pieces[k].notation) || piece.slice(0, 2);
  d.title = player + ' ' + piece;
  return d;
}

// The legal drops of `piece` by `player` onto a drawn position.
function dropsOf(player, piece) {
  return moves.filter((m) => m.from === null && m.to && m.player === player && m.piece === piece);
}

// Each player's pieces in hand (GET /api/state's `hand`), with their counts; a click on one
// of the player to move selects it to drop, and its targets are marked on the board.
function renderHands() {
  const box = $('hands');
  box.innerHTML = '';
  if (!game.players.some((pl) => state.hand.some((h) => h.player === pl)) && !box.dataset.ever) return;
  box.dataset.ever = '1';
  for (const pl of game.players) {
    const row = document.createElement('div');
    row.className = 'hand';
    row.dataset.player = pl;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = pl + ' in hand:';
    row.appendChild(who);
    const mine = state.hand.filter((h) => h.player === pl);
    if (!mine.length) {
      const none = document.createElement('span');
      none.className = 'none';
      none.textContent = 'none';
      row.appendChild(none);
    }
    for (const h of mine) {
      const b = document.createElement('button');
      b.className = 'held';
      b.dataset.piece = h.piece;
      b.dataset.count = h.count;
      b.title = pl + ' ' + h.piece + ' × ' + h.count;
      if (held && held.player === pl && held.piece === h.piece) b.classList.add('sel');
      b.appendChild(pieceElement(pl, h.piece));
      const c = document.createElement('span');
      c.className = 'count';
      c.textContent = '×' + h.count;
      b.appendChild(c);
      b.addEventListener('click', () => handClicked(pl, h.piece));
      row.appendChild(b);
    }
    box.appendChild(row);
  }
}

function handClicked(player, piece) {
  if (busy || state.end || sides[state.to_move] !== 'person') return;
  selected = null;
  const same = held && held.player === player && held.piece === piece;
  held = !same && dropsOf(player, piece).length ? { player, piece } : null;
  render();
  if (!same && !held) {
    $('error').textContent = player === state.to_move
      ? 'No legal drop of ' + piece + ' now.' : 'It is ' + state.to_move + "'s turn.";
  }
}

function saveLink() {
  if (!game) return;
  const kinds = game.players.map((p) => (sides[p] === 'person' ? 'H' : 'C')).join('');
  $('save').href = 'api/zsg?players=' + kinds;
}

function clicked(pos) {
  if (busy || state.end || sides[state.to_move] !== 'person') return;
  if (held) {
    const here = dropsOf(held.player, held.piece).filter((m) => m.to === pos);
    held = null;
    if (here.length) return choose(here, 'On ' + pos);
  }
  if (selected) {
    const here = moves.filter((m) => m.from === selected && m.to === pos);
    if (here.length) return choose(here, selected + ' → ' + pos);
  }
  if (moves.some((m) => m.from === pos)) {
    selected = selected === pos ? null : pos;
    return render();
  }
  const drops = moves.filter((m) => m.from === null && m.to === pos);
  if (drops.length) return choose(drops, 'On ' + pos);
  selected = null;
  render();
}

// One move is played at once; several (promotions, choices, drops of different pieces) get a picker.
function choose(list, what) {
  if (list.length === 1) return play({ index: list[0].index });
  $('pickwhat').textContent = what + ': choose a move';
  const box = $('choices');
  box.innerHTML = '';
  for (const m of list) {
    const b = document.createElement('button');
    b.textContent = m.notation;
    b.addEventListener('click', () => { $('picker').classList.remove('open'); play({ index: m.index }); });
    box.appendChild(b);
  }
  $('picker').classList.add('open');
}

async function act(method, path, body, then) {
  if (busy) return;
  busy = true;
  try {
    const r = await api(method, path, body);
    await refresh(r.state);
    $('error').textContent = state.stopped || state.warning || '';
    if (then) then();
  } catch (e) {
    // The position as the server has it now (a dropped game starts again: refresh says so).
    try { await refresh(); } catch (_) { /* the server is gone: the error says enough */ }
    $('error').textContent = e.message;
  } finally {
    busy = false;
  }
}

function play(body) { return act('POST', 'api/move', body, auto); }

// A random player moves after a short pause, the computer after thinking (POST /api/think);
// undo and redo never trigger either.
let autoTimer = null;
function auto() {
  clearTimeout(autoTimer);
  if (!state || state.end || state.stopped || moves.length === 0) return;
  const side = sides[state.to_move];
  if (side !== 'random' && side !== 'computer') return;
  const at = state.undo;
  const still = () => state.undo === at && sides[state.to_move] === side && moves.length > 0;
  autoTimer = setTimeout(async () => {
    if (busy || !still()) return;
    if (side === 'random') return play({ index: moves[Math.floor(Math.random() * moves.length)].index });
    busy = true;
    $('status').textContent = state.to_move + ' (computer) is thinking…';
    let choice = null;
    try {
      choice = await api('POST', 'api/think', { ms: 1000 });
    } catch (e) {
      $('error').textContent = e.message;
    } finally {
      busy = false;
    }
    if (choice && still()) play({ index: choice.index });
  }, 250);
}

$('undo').addEventListener('click', () => act('POST', 'api/undo'));
$('redo').addEventListener('click', () => act('POST', 'api/redo'));
$('first').addEventListener('click', () => act('POST', 'api/undo?all'));
$('last').addEventListener('click', () => act('POST', 'api/redo?all'));
$('load').addEventListener('change', async () => {
  const f = $('load').files[0];
  if (!f || busy) return;
  busy = true;
  try {
    const r = await fetch('api/zsg', { method: 'POST', body: await f.text() });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    await refresh(j.state);
    $('error').textContent = '';
    $('note').textContent = 'Loaded ' + j.records + ' moves of ' + f.name + ': step through them with Redo.';
  } catch (e) {
    $('error').textContent = e.message;
  } finally {
    busy = false;
    $('load').value = '';
  }
});
$('new').addEventListener('click', () => act('POST', 'api/new', undefined, auto));
$('flip').addEventListener('click', () => $('board').classList.toggle('flipped'));
$('pass').addEventListener('click', () => { const p = moves.find((m) => m.pass); if (p) play({ index: p.index }); });
$('playall').addEventListener('click', () => { const v = $('all').value; if (v !== '') play({ index: Number(v) }); });
$('pickcancel').addEventListener('click', () => $('picker').classList.remove('open'));

load().catch((e) => { $('status').textContent = 'Error'; $('error').textContent = e.message; });
