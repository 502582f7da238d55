// delayq console: a hash-routed page over the console's JSON API. No build step, no dependencies.
'use strict';

const state = { session: { readOnly: true, signedIn: false }, timer: null };
const main = () => document.getElementById('main');
const show = (...nodes) => main().replaceChildren(...nodes.flat().filter(n => n !== null && n !== undefined && n !== false));

// ---- small DOM helper: text is always set as text, never parsed as HTML ----
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const svgNs = 'http://www.w3.org/2000/svg';
function s(tag, attrs) {
  const el = document.createElementNS(svgNs, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

// ---- formatting ----
const fmt = n => Number(n).toLocaleString('en-US');
function human(ms) {
  ms = Math.abs(ms);
  if (ms < 1000) return ms + 'ms';
  const sec = Math.floor(ms / 1000);
  if (sec < 60) return sec + 's';
  const m = Math.floor(sec / 60);
  if (m < 60) return m + 'm ' + String(sec % 60).padStart(2, '0') + 's';
  const hr = Math.floor(m / 60);
  if (hr < 48) return hr + 'h ' + String(m % 60).padStart(2, '0') + 'm';
  return Math.floor(hr / 24) + 'd ' + (hr % 24) + 'h';
}
const utc = ms => new Date(ms).toISOString().replace('.000Z', 'Z');
const rel = (ms, now) => (ms >= now ? 'in ' + human(ms - now) : human(now - ms) + ' ago');
const enc = encodeURIComponent;

// ---- API ----
class ApiError extends Error {
  constructor(status, field, message) { super(message); this.status = status; this.field = field; }
}
async function api(path, options) {
  // relative: the console may be served under a path prefix (DELAYQ_CONSOLE_PATH, the Ingress path)
  const res = await fetch('api/' + path, Object.assign({ credentials: 'same-origin', headers: {} }, options));
  let body;
  try { body = await res.json(); } catch (e) { throw new ApiError(res.status, null, 'the console answered ' + res.status + ' without JSON'); }
  if (!res.ok || body.error) {
    const e = body.error || {};
    throw new ApiError(e.status || res.status, e.field, e.message || 'request failed');
  }
  return body;
}
function post(path, body) {
  return api(path, {
    method: 'POST', body: JSON.stringify(body || {}),
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': state.session.csrf || '' },
  });
}

function errorBox(e) {
  return h('div', { class: 'error', role: 'alert', id: 'error' },
    h('strong', {}, 'Error ' + (e.status || '')), ' ',
    e.field ? h('code', { class: 'field' }, e.field) : null, e.field ? ': ' : '',
    h('span', { class: 'message' }, e.message));
}
function notice(text) { return h('div', { class: 'notice', role: 'status', id: 'notice' }, text); }

// ---- session: read-only, or signed in with the action token ----
async function loadSession() {
  try { state.session = await api('session'); } catch (e) { state.session = { readOnly: true, signedIn: false }; }
  renderSession();
}
function renderSession() {
  const box = document.getElementById('session');
  box.replaceChildren();
  const ss = state.session;
  if (ss.redis) document.getElementById('redis').textContent = 'Redis: ' + ss.redis;
  if (ss.readOnly) {
    box.append(h('span', { class: 'badge ro', id: 'read-only' }, 'read-only'), h('span', { class: 'muted' }, ' no action token configured'));
  } else if (ss.signedIn) {
    box.append(h('span', { id: 'signed-in' }, 'signed in as ', h('b', {}, ss.user)),
      h('button', { type: 'button', id: 'sign-out', onclick: async () => { await api('session', { method: 'DELETE' }); await loadSession(); route(); } }, 'Sign out'));
  } else {
    const token = h('input', { type: 'password', id: 'token', 'aria-label': 'action token', placeholder: 'action token', autocomplete: 'off' });
    const name = h('input', { type: 'text', id: 'user', 'aria-label': 'your name', placeholder: 'your name' });
    box.append(h('form', {
      id: 'sign-in', class: 'filters', onsubmit: async ev => {
        ev.preventDefault();
        try {
          state.session = await api('session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: token.value, name: name.value }) });
          renderSession(); route();
        } catch (e) { showFlash(errorBox(e)); }
      }
    }, name, token, h('button', { type: 'submit' }, 'Sign in to act')));
  }
}
const canAct = () => !state.session.readOnly && state.session.signedIn;
let flash = null;
function showFlash(node) { flash = node; const m = main(); const old = document.getElementById('flash'); if (old) old.remove(); m.prepend(h('div', { id: 'flash' }, node)); }

// ---- confirm-then-act: every action first asks the server what it would touch ----
async function act(queue, action, body, after) {
  let preview;
  try { preview = await post('queues/' + enc(queue) + '/actions/' + action, body); } catch (e) { showFlash(errorBox(e)); return; }
  const dlg = document.getElementById('confirm');
  document.getElementById('confirm-title').textContent = 'Confirm: ' + action;
  document.getElementById('confirm-message').textContent = preview.message;
  const list = document.getElementById('confirm-sample');
  list.replaceChildren(...(preview.sample || []).map(id => h('li', {}, id)));
  if (preview.count > (preview.sample || []).length && (preview.sample || []).length > 0) list.append(h('li', { class: 'muted' }, '… and ' + fmt(preview.count - preview.sample.length) + ' more'));
  dlg.returnValue = '';
  dlg.showModal();
  document.getElementById('confirm-no').focus();
  const answer = await new Promise(resolve => dlg.addEventListener('close', () => resolve(dlg.returnValue), { once: true }));
  if (answer !== 'ok') { showFlash(notice('Nothing was changed.')); return; }
  try {
    const done = await post('queues/' + enc(queue) + '/actions/' + action, Object.assign({}, body, { confirm: true }, preview.selection ? { selection: preview.selection } : {}));
    flash = notice(done.message);
    if (after) after(done); else route();
  } catch (e) { showFlash(errorBox(e)); }
}

// ---- chart: due backlog and firing lag (age of the oldest overdue task) over the kept history ----
// The lines are drawn in an SVG stretched to the plot's box; the axis labels are HTML beside and below it, so a
// label as long as "47h 59m" takes the room it needs instead of being cut off at the SVG's edge or stretched with it.
function chart(points, windowMs, now) {
  const W = 1000, H = 100, PAD = 2;
  const svg = s('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' });
  const end = points.length ? Math.max(now, points[points.length - 1][0]) : now;
  const start = end - windowMs;
  const maxDue = Math.max(1, ...points.map(p => p[1]));
  const maxLag = Math.max(1000, ...points.map(p => p[2]));
  const x = t => W * (t - start) / windowMs;
  const y = (v, max) => PAD + (H - 2 * PAD) * (1 - v / max);
  const line = (idx, max, color) => {
    if (!points.length) return;
    const d = points.map(p => `${x(p[0]).toFixed(1)},${y(p[idx], max).toFixed(1)}`).join(' ');
    svg.append(s('polyline', { points: d, fill: 'none', stroke: color, 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }));
  };
  // the latest value as a dot: a zero-length line with round caps stays round in a stretched SVG, a circle would not
  const dot = (px, py, color) => svg.append(s('line', { x1: px, y1: py, x2: px, y2: py, stroke: color, 'stroke-width': 6,
    'stroke-linecap': 'round', 'vector-effect': 'non-scaling-stroke' }));
  line(1, maxDue, '#2457a6');
  line(2, maxLag, '#c2410c');
  const last = points[points.length - 1];
  if (last) {
    dot(x(last[0]), y(last[1], maxDue), '#2457a6');
    dot(x(last[0]), y(last[2], maxLag), '#c2410c');
  }
  // each axis has two labels: the top and bottom of a value axis, the start and end of the time axis
  const axis = (side, first, second) => h('div', { class: 'axis ' + side, 'data-axis': side },
    h('span', { class: 'axis-label' }, first), h('span', { class: 'axis-label' }, second));
  return h('figure', { class: 'card' },
    h('div', { class: 'chart', role: 'img',
      'aria-label': `Due backlog (max ${fmt(maxDue)}) and oldest overdue age (max ${human(maxLag)}) over the last ${human(windowMs)}` },
    axis('left', fmt(maxDue), '0'), svg, axis('right', human(maxLag), '0s'), axis('time', '-' + human(windowMs), 'now')),
    h('figcaption', { class: 'legend' }, h('i', { class: 'l-due' }), 'due backlog (left axis)', h('i', { class: 'l-lag' }), 'firing lag: oldest overdue task (right axis)',
      points.length ? '' : ' — no samples yet'));
}

// ---- chart: the coming hour, tasks falling due per 5-minute bin (core's due forecast, read when the page was) ----
// Same frame as the history chart: bars in a stretched SVG, the axis labels in HTML beside and below it.
function forecastChart(f) {
  const W = 1000, H = 100, PAD = 2, GAP = 6;
  const svg = s('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' });
  const maxTasks = Math.max(1, ...f.bins.map(b => b.tasks));
  const slot = W / f.bins.length;
  const minutes = ms => Math.round(ms / 60000);
  f.bins.forEach((b, i) => {
    const height = (H - 2 * PAD) * b.tasks / maxTasks;
    const bar = s('rect', { class: 'bar', x: (i * slot + GAP / 2).toFixed(1), y: (H - PAD - height).toFixed(1), width: (slot - GAP).toFixed(1),
      height: height.toFixed(1), fill: '#2457a6', 'data-bin': i, 'data-tasks': b.tasks, 'data-from': b.from, 'data-to': b.to });
    const title = s('title', {});
    title.textContent = `${fmt(b.tasks)} ${plural(b.tasks, 'task', 'tasks')} due in ${minutes(b.from - f.at)}–${minutes(b.to - f.at)} min `
      + `(${utc(b.from).slice(11, 16)}–${utc(b.to).slice(11, 16)} UTC)`;
    bar.append(title);
    svg.append(bar);
  });
  const axis = (side, ...labels) => h('div', { class: 'axis ' + side, 'data-axis': side }, labels.map(l => h('span', { class: 'axis-label' }, l)));
  const half = minutes(f.bins.length * f.binMs / 2);
  return h('figure', { class: 'card', id: 'forecast' },
    h('div', { class: 'chart', role: 'img',
      'aria-label': `Tasks falling due per ${minutes(f.binMs)} minutes over the next hour: ${fmt(f.dueNextHour)} in all, at most ${fmt(maxTasks)} in one bin` },
    axis('left', fmt(maxTasks), '0'), svg, axis('time', 'now', '+' + half + 'm', '+' + minutes(f.bins.length * f.binMs) + 'm')),
    h('figcaption', { class: 'legend' }, h('i', { class: 'l-due' }), `tasks falling due per ${minutes(f.binMs)} minutes, the next hour`),
    h('p', { id: 'forecast-next', 'data-ms': f.nextDueAt, 'data-tasks': f.dueNextHour }, nextDueWords(f.dueNextHour, f.nextDueAt, f.at)));
}
/** The forecast in words: how many fall due in the next hour and when the next one is due (nextDueAt -1: nothing waits). */
function nextDueWords(dueNextHour, nextDueAt, now) {
  const next = nextDueAt < 0 ? null : `${rel(nextDueAt, now)} (${utc(nextDueAt)})`;
  if (dueNextHour > 0) return `${fmt(dueNextHour)} ${plural(dueNextHour, 'task', 'tasks')} due in the next hour; the next ${next}.`;
  return 'Nothing due in the next hour' + (next ? `; the next task is due ${next}.` : '; no task waits for a later time.');
}

// ---- pages ----
function crumbs(...parts) {
  const c = document.getElementById('crumbs');
  c.replaceChildren();
  for (const p of parts) c.append(h('span', { class: 'sep' }, '›'), p.href ? h('a', { href: p.href }, p.text) : h('span', {}, p.text));
}
function tile(label, value, cls, id) { return h('div', { class: 'tile ' + (cls || ''), id }, h('b', {}, value), h('span', {}, label)); }
const pausedBadge = q => q.paused || q.pausedShards > 0
  ? h('span', { class: 'badge paused' }, q.pausedShards === q.shards || q.pausedShards === undefined ? 'paused' : `paused (${q.pausedShards}/${q.shards} shards)`)
  : h('span', { class: 'badge running' }, 'running');
// a reshard in progress (the meta hash's migration and the mover's last recorded counts), or nothing
const reshardBadge = q => q.reshard ? h('span', { class: 'badge resharding', title: reshardProgress(q.reshard) }, `resharding ${q.reshard.from} → ${q.reshard.to}`) : null;
const reshardProgress = r => `${fmt(r.moved)} moved, ` + (r.left < 0 ? 'left not counted yet' : `about ${fmt(r.left)} left to look at or move`);
function reshardNote(name, r) {
  const known = r.left >= 0;
  return h('div', { class: 'notice', id: 'reshard', role: 'status' },
    h('strong', {}, `Resharding from ${r.from} to ${r.to} shards`), ` (layout epoch ${r.epoch}): `,
    h('span', { id: 'reshard-progress-text' }, reshardProgress(r)), '. ',
    known ? h('progress', { id: 'reshard-progress', value: r.moved, max: Math.max(1, r.moved + r.left), 'aria-label': 'tasks moved' }) : null,
    h('span', { class: 'muted' }, ` Shards ${r.from}–${r.to - 1} are new: new tasks go to their shard of the new layout, and tasks on the old shards ` +
      `fire there until the mover moves them. The counts are the mover's, recorded as it goes; ` +
      `delayq reshard ${name} --to ${r.to} (or the operator, for a DelayQueue) drives the move and resumes it after a stop.`));
}

async function overviewPage() {
  crumbs();
  const data = await api('overview');
  document.getElementById('redis').textContent = 'Redis: ' + data.redis;
  const rows = data.queues.map(q => q.error ? h('tr', { 'data-queue': q.name, class: 'broken' },
    h('td', {}, h('a', { href: '#/q/' + enc(q.name) }, q.name)),
    h('td', { colspan: 9, 'data-col': 'error', class: 'wrap' }, h('span', { class: 'badge paused' }, 'unreadable'), ' ', q.error)) : h('tr', { 'data-queue': q.name },
    h('td', {}, h('a', { href: '#/q/' + enc(q.name) }, q.name)),
    h('td', { class: 'num' }, q.shards),
    h('td', { class: 'num', 'data-col': 'scheduled' }, fmt(q.scheduled)),
    h('td', { class: 'num', 'data-col': 'due' }, fmt(q.due)),
    h('td', { class: 'num', 'data-col': 'next-hour', title: nextDueWords(q.dueNextHour, q.nextDueAt, data.serverTime) }, fmt(q.dueNextHour)),
    h('td', { class: 'num', 'data-col': 'next-due', 'data-ms': q.nextDueAt, title: q.nextDueAt < 0 ? 'no task waits for a later time' : utc(q.nextDueAt) },
      q.nextDueAt < 0 ? '–' : rel(q.nextDueAt, data.serverTime)),
    h('td', { class: 'num', 'data-col': 'inflight' }, fmt(q.inflight)),
    h('td', { class: 'num', 'data-col': 'dead' }, fmt(q.dead)),
    h('td', { class: 'num', 'data-col': 'overdue' }, q.oldestOverdueMs > 0 ? human(q.oldestOverdueMs) : '–'),
    h('td', { 'data-col': 'paused' }, pausedBadge(q), q.reshard ? ' ' : null, reshardBadge(q))));
  show(h('h1', {}, 'All queues'),
    data.truncated ? h('p', { class: 'notice', id: 'truncated' }, 'Not every queue is listed: ' + data.truncatedWhy + '. Name the queues to show in DELAYQ_CONSOLE_QUEUES.') : null,
    data.queues.length === 0 ? h('p', { class: 'notice' }, 'No queue found in this Redis (no dq:{name}:meta hash).') :
      h('div', { class: 'scroll' }, h('table', { id: 'queues' },
        h('thead', {}, h('tr', {}, h('th', {}, 'queue'), h('th', { class: 'num' }, 'shards'), h('th', { class: 'num' }, 'scheduled'),
          h('th', { class: 'num' }, 'due'), h('th', { class: 'num', title: 'tasks falling due in the next hour' }, 'next hour'), h('th', { class: 'num', title: 'when the next task not yet due falls due' }, 'next due'), h('th', { class: 'num' }, 'in flight'), h('th', { class: 'num' }, 'dead'),
          h('th', { class: 'num' }, 'oldest overdue'), h('th', {}, 'state'))),
        h('tbody', {}, rows))),
    ...data.queues.filter(q => !q.error).map(q => h('section', {}, h('h2', {}, q.name + ': last ' + human(data.historyWindowMs)), chart(q.history, data.historyWindowMs, data.serverTime))));
  const audit = await api('audit');
  if (audit.actions.length) {
    main().append(h('h2', {}, 'Recent actions (this console)'), h('div', { class: 'scroll' }, h('table', { id: 'audit' },
      h('thead', {}, h('tr', {}, h('th', {}, 'when'), h('th', {}, 'who'), h('th', {}, 'queue'), h('th', {}, 'action'), h('th', {}, 'what'), h('th', {}, 'result'))),
      h('tbody', {}, audit.actions.slice(0, 20).map(a => h('tr', {}, h('td', {}, utc(a.at)), h('td', {}, a.who), h('td', {}, a.queue),
        h('td', {}, a.action), h('td', { class: 'wrap' }, a.target), h('td', {}, a.result)))))));
  }
}

function workersSection(list, now) {
  if (!list.length) return h('p', { class: 'notice', id: 'no-workers' }, 'No worker has reported a heartbeat in the last 15 s (none runs, or all run a version before the presence registry).');
  return h('div', { class: 'scroll' }, h('table', { id: 'workers' },
    h('thead', {}, h('tr', {}, h('th', {}, 'worker'), h('th', {}, 'shards'), h('th', {}, 'version'), h('th', { class: 'hide-narrow' }, 'host'),
      h('th', {}, 'started'), h('th', {}, 'last heartbeat'), h('th', { class: 'num' }, 'leases held'))),
    h('tbody', {}, list.map(w => h('tr', { 'data-worker': w.id },
      h('td', { class: 'mono' }, w.id),
      h('td', { 'data-col': 'shards' }, w.shardFrom === w.shardTo ? String(w.shardFrom) : w.shardFrom + '–' + w.shardTo),
      h('td', { 'data-col': 'version' }, w.version),
      h('td', { class: 'hide-narrow' }, w.host),
      h('td', { title: utc(w.startedAt) }, rel(w.startedAt, now)),
      h('td', { title: utc(w.heartbeatAt), 'data-col': 'heartbeat' }, rel(w.heartbeatAt, now)),
      h('td', { class: 'num', 'data-col': 'held' }, fmt(w.held)))))));
}

function schedulesSection(name, list, now) {
  if (!list.length) return h('p', { class: 'muted', id: 'no-schedules' }, 'No recurring schedule in this queue (delayq schedule add, or spec.schedules of its DelayQueue).');
  const when = ms => ms === null || ms === undefined ? '–' : utc(ms) + ' (' + rel(ms, now) + ')';
  const rows = list.map(s => h('tr', { 'data-schedule': s.name },
    h('td', { class: 'mono' }, s.name),
    h('td', { class: 'mono', 'data-col': 'cron' }, s.cron),
    h('td', { 'data-col': 'zone' }, s.timeZone),
    h('td', { 'data-col': 'next', 'data-ms': s.nextFire === null ? '' : s.nextFire }, when(s.nextFire)),
    h('td', { 'data-col': 'last', 'data-ms': s.lastFired === null ? '' : s.lastFired }, when(s.lastFired)),
    h('td', { 'data-col': 'outcome' }, s.lastTaskId && s.lastOutcome !== 'succeeded'
      ? h('a', { href: '#/q/' + enc(name) + '/task/' + enc(s.lastTaskId), title: s.lastTaskId }, s.lastOutcome) : s.lastOutcome),
    h('td', { 'data-col': 'state' }, s.paused ? h('span', { class: 'badge paused' }, 'paused') : h('span', { class: 'badge running' }, 'active'),
      s.managedBy === 'operator' ? h('span', { class: 'muted' }, ' (DelayQueue)') : null),
    h('td', {}, s.managedBy === 'operator' ? h('span', { class: 'muted', title: 'declared in the DelayQueue resource: change spec.schedules[].suspend there' }, 'in its resource')
      : h('button', { type: 'button', id: (s.paused ? 'schedule-resume-' : 'schedule-pause-') + s.name, disabled: !canAct(),
        onclick: () => act(name, s.paused ? 'schedule-resume' : 'schedule-pause', { name: s.name }) }, s.paused ? 'Resume' : 'Pause'))));
  return h('div', { class: 'scroll' }, h('table', { id: 'schedules' },
    h('thead', {}, h('tr', {}, h('th', {}, 'schedule'), h('th', {}, 'cron'), h('th', {}, 'zone'), h('th', {}, 'next fire'), h('th', {}, 'last fired'),
      h('th', {}, 'last outcome'), h('th', {}, 'state'), h('th', {}, ''))),
    h('tbody', {}, rows)));
}

// ---- business calendars: listed with today's standing; added or replaced whole through the confirm-then-act actions ----
function calendarsSection(name, list) {
  const field = (id, label, attrs) => h('label', { for: id }, label, ' ', h(attrs.rows ? 'textarea' : 'input', Object.assign({ id, name: id }, attrs)));
  const form = h('form', { id: 'calendar-form', class: 'calendar-form', onsubmit: (e) => {
      e.preventDefault();
      const v = id => document.getElementById(id).value.trim();
      const list = text => text.split(/[\s,]+/).filter(x => x);
      act(name, 'calendar-put', { calendar: { name: v('cal-name'), timeZone: v('cal-zone'), weekdays: list(v('cal-weekdays').toUpperCase()), holidays: list(v('cal-holidays')) } });
    } },
    field('cal-name', 'name', { placeholder: 'de-bank', autocomplete: 'off', required: true }),
    field('cal-zone', 'time zone', { placeholder: 'Europe/Berlin', autocomplete: 'off', required: true }),
    field('cal-weekdays', 'working weekdays', { value: 'MON,TUE,WED,THU,FRI', autocomplete: 'off' }),
    field('cal-holidays', 'holidays (YYYY-MM-DD, one a line or comma-separated)', { rows: 3, placeholder: '2026-12-24\n2026-12-25' }),
    h('button', { type: 'submit', id: 'calendar-save', disabled: !canAct() }, 'Save calendar'));
  const edit = c => {
    document.getElementById('cal-name').value = c.name;
    document.getElementById('cal-zone').value = c.timeZone;
    document.getElementById('cal-weekdays').value = c.weekdays.join(',');
    document.getElementById('cal-holidays').value = c.holidays.join('\n');
    document.getElementById('cal-name').focus();
  };
  const table = !list.length ? h('p', { class: 'muted', id: 'no-calendars' }, 'No business calendar in this queue (add one below, or delayq calendar put).')
    : h('div', { class: 'scroll' }, h('table', { id: 'calendars' },
      h('thead', {}, h('tr', {}, h('th', {}, 'calendar'), h('th', {}, 'zone'), h('th', {}, 'weekdays'), h('th', { class: 'num' }, 'holidays'),
        h('th', {}, 'today'), h('th', {}, 'next business day'), h('th', {}, ''))),
      h('tbody', {}, list.map(c => h('tr', { 'data-calendar': c.name },
        h('td', { class: 'mono' }, c.name), h('td', {}, c.timeZone), h('td', {}, c.weekdays.join(',')),
        h('td', { class: 'num', title: c.holidays.join(', ') }, fmt(c.holidays.length)),
        h('td', {}, c.today + ' ', c.businessToday ? h('span', { class: 'badge running' }, 'business') : h('span', { class: 'badge paused' }, 'closed')),
        h('td', {}, c.nextBusinessDay),
        h('td', {}, h('button', { type: 'button', id: 'calendar-edit-' + c.name, onclick: () => edit(c) }, 'Edit'), ' ',
          h('button', { type: 'button', class: 'danger', id: 'calendar-delete-' + c.name, disabled: !canAct(),
            onclick: () => act(name, 'calendar-delete', { name: c.name }) }, 'Delete')))))));
  return h('div', { id: 'calendars-section' }, table, form);
}

// the newest completion records (kept after acks while the queue keeps results: DELAYQ_RESULTS_KEEP)
function completionsSection(name, list, now) {
  if (!list.length) return h('p', { class: 'muted', id: 'no-completions' }, 'No completion kept: tasks leave nothing behind when acked unless the workers keep results (DELAYQ_RESULTS_KEEP, spec.results.keep of its DelayQueue).');
  return h('div', { class: 'scroll' }, h('table', { id: 'completions' },
    h('thead', {}, h('tr', {}, h('th', {}, 'task'), h('th', {}, 'finished'), h('th', { class: 'num' }, 'attempts'), h('th', { class: 'hide-narrow' }, 'worker'),
      h('th', { class: 'num' }, 'handler'), h('th', {}, 'result'))),
    h('tbody', {}, list.map(c => h('tr', { 'data-task': c.id },
      h('td', { class: 'mono' }, h('a', { href: '#/q/' + enc(name) + '/task/' + enc(c.id) }, c.id)),
      h('td', { title: utc(c.finishedAt), 'data-col': 'finished' }, rel(c.finishedAt, now)),
      h('td', { class: 'num', 'data-col': 'attempts' }, fmt(c.attempts)),
      h('td', { class: 'hide-narrow mono', 'data-col': 'worker' }, c.worker || '–'),
      h('td', { class: 'num' }, human(c.handlerMillis)),
      h('td', { class: 'mono', 'data-col': 'result', title: c.result }, (c.result.length > 80 ? c.result.slice(0, 80) + '…' : c.result) || '–'))))));
}

async function queuePage(name) {
  crumbs({ text: name });
  const [q, sch, cals, done] = await Promise.all([api('queues/' + enc(name)), api('queues/' + enc(name) + '/schedules'),
    api('queues/' + enc(name) + '/calendars'), api('queues/' + enc(name) + '/completions?limit=20')]);
  const now = q.serverTime;
  const m = main();
  const tasksLink = st => '#/q/' + enc(name) + '/tasks?state=' + st;
  const controls = h('div', { class: 'actions' },
    q.paused
      ? h('button', { type: 'button', id: 'resume', class: 'primary', disabled: !canAct(), onclick: () => act(name, 'resume', {}) }, 'Resume queue')
      : h('button', { type: 'button', id: 'pause', disabled: !canAct(), onclick: () => act(name, 'pause', {}) }, 'Pause queue'),
    h('button', { type: 'button', id: 'replay-all', disabled: !canAct() || q.dead === 0, onclick: () => act(name, 'dead-replay', { all: true }) }, 'Replay all dead letters'),
    h('button', { type: 'button', id: 'purge-all', class: 'danger', disabled: !canAct() || q.dead === 0, onclick: () => act(name, 'dead-purge', { all: true }) }, 'Purge all dead letters'),
    h('a', { href: '#/q/' + enc(name) + '/bulk', id: 'bulk-link' }, 'Bulk actions on waiting tasks…'),
    canAct() ? null : h('span', { class: 'muted' }, state.session.readOnly ? 'read-only console' : 'sign in to act'));
  const shardRows = q.shardTable.map(r => h('tr', { 'data-shard': r.shard },
    h('td', { class: 'num' }, q.reshard && r.shard >= q.reshard.from ? h('span', { class: 'badge resharding', 'data-col': 'new', title: `added by the reshard to ${q.reshard.to} shards` }, 'new') : null,
      q.reshard && r.shard >= q.reshard.from ? ' ' : null, r.shard),
    h('td', { class: 'num', 'data-col': 'scheduled' }, fmt(r.scheduled)),
    h('td', { class: 'num', 'data-col': 'due' }, fmt(r.due)),
    h('td', { class: 'num', 'data-col': 'inflight' }, fmt(r.inflight)),
    h('td', { class: 'num', 'data-col': 'dead' }, fmt(r.dead)),
    h('td', { class: 'num' }, r.oldestOverdueMs > 0 ? human(r.oldestOverdueMs) : '–'),
    h('td', {}, r.paused ? h('span', { class: 'badge paused' }, 'paused') : h('span', { class: 'badge running' }, 'running')),
    h('td', { class: 'hide-narrow mono', 'data-col': 'workers' }, r.workers.length ? r.workers.join(', ') : h('span', { class: 'warn-text' }, 'none alive')),
    h('td', { class: 'hide-narrow' }, r.nextLeaseExpiry >= 0 ? rel(r.nextLeaseExpiry, now) : '–'),
    h('td', { class: 'num hide-narrow' }, r.rateTokens === null ? 'off' : Number(r.rateTokens).toFixed(1))));
  show(
    h('h1', {}, 'Queue ', h('span', { class: 'mono' }, name), ' ', pausedBadge(q), q.reshard ? ' ' : null, reshardBadge(q)),
    q.paused ? h('p', { class: 'notice', id: 'paused-note' }, `Paused since ${utc(q.pausedAt)} by ${q.pausedBy}. Claims hand out nothing; due times are kept.`) : null,
    q.reshard ? reshardNote(name, q.reshard) : null,
    h('div', { class: 'tiles' },
      h('a', { href: tasksLink('scheduled'), class: 'tile', id: 't-scheduled' }, h('b', {}, fmt(q.scheduled)), h('span', {}, 'scheduled')),
      h('a', { href: tasksLink('due'), class: 'tile ' + (q.due > 0 ? 'warn' : ''), id: 't-due' }, h('b', {}, fmt(q.due)), h('span', {}, 'due now')),
      h('a', { href: tasksLink('inflight'), class: 'tile', id: 't-inflight' }, h('b', {}, fmt(q.inflight)), h('span', {}, 'in flight')),
      h('a', { href: tasksLink('dead'), class: 'tile ' + (q.dead > 0 ? 'bad' : ''), id: 't-dead' }, h('b', {}, fmt(q.dead)), h('span', {}, 'dead')),
      tile('oldest overdue', q.oldestOverdueMs > 0 ? human(q.oldestOverdueMs) : '–', q.oldestOverdueMs > 60000 ? 'warn' : '', 't-overdue')),
    findForm(name),
    controls,
    h('div', { class: 'charts' },
      h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'The last ' + human(q.historyWindowMs)), chart(q.history, q.historyWindowMs, now)),
      h('section', { 'aria-labelledby': 'forecast-title' }, h('h2', { id: 'forecast-title' }, 'The next hour'), forecastChart(q.forecast))),
    h('h2', {}, 'Shards'),
    h('div', { class: 'scroll' }, h('table', { id: 'shards' },
      h('thead', {}, h('tr', {}, h('th', { class: 'num' }, 'shard'), h('th', { class: 'num' }, 'scheduled'), h('th', { class: 'num' }, 'due'),
        h('th', { class: 'num' }, 'in flight'), h('th', { class: 'num' }, 'dead'), h('th', { class: 'num' }, 'oldest overdue'), h('th', {}, 'claims'),
        h('th', { class: 'hide-narrow' }, 'workers'), h('th', { class: 'hide-narrow' }, 'next lease expiry'), h('th', { class: 'num hide-narrow' }, 'rate tokens'))),
      h('tbody', {}, shardRows))),
    h('h2', {}, 'Workers'),
    workersSection(q.workers, now),
    h('h2', {}, 'Recurring schedules'),
    schedulesSection(name, sch.schedules, now),
    h('h2', { id: 'calendars-title' }, 'Business calendars'),
    calendarsSection(name, cals.calendars),
    h('h2', {}, 'Recent completions'),
    completionsSection(name, done.completions, now),
    h('p', { class: 'muted' }, 'Workers: those whose heartbeat (every 5 s, TTL 15 s) is current in the queue\'s presence registry; a task in flight names its holder on its page. ' +
      'Rate tokens: the shard\'s token bucket in Redis when the workers run with DELAYQ_RATE_LIMIT ("off" when none was ever used).'));
}

function findForm(name) {
  const id = h('input', { type: 'search', id: 'find-id', name: 'id', 'aria-label': 'task id', placeholder: 'task id or prefix', autocomplete: 'off' });
  return h('form', {
    class: 'filters card', id: 'find', role: 'search', onsubmit: async ev => {
      ev.preventDefault();
      const v = id.value.trim();
      if (!v) return;
      try { await api('queues/' + enc(name) + '/tasks/' + enc(v)); location.hash = '#/q/' + enc(name) + '/task/' + enc(v); } catch (e) {
        if (e.status === 404 && e.field === 'id') location.hash = '#/q/' + enc(name) + '/tasks?state=scheduled&prefix=' + enc(v);
        else showFlash(errorBox(e));
      }
    }
  }, h('label', {}, 'Find a task by id (exact, else by prefix)', id), h('button', { type: 'submit' }, 'Find'));
}

async function tasksPage(name, params) {
  const st = params.get('state') || 'due';
  crumbs({ text: name, href: '#/q/' + enc(name) }, { text: 'tasks' });
  const qs = new URLSearchParams();
  for (const k of ['state', 'prefix', 'from', 'to', 'limit', 'cursor']) if (params.get(k)) qs.set(k, params.get(k));
  if (!qs.get('state')) qs.set('state', st);
  const m = main();
  const form = filterForm(name, params, st);
  let data;
  try { data = await api('queues/' + enc(name) + '/tasks?' + qs.toString()); } catch (e) { m.replaceChildren(h('h1', {}, 'Tasks of ', name), form, errorBox(e)); e.rendered = true; throw e; }
  const now = data.serverTime;
  const when = { scheduled: 'due', due: 'due', inflight: 'lease expires', dead: 'died' }[data.state];
  const rows = data.tasks.map(t => h('tr', { 'data-id': t.id },
    h('td', { class: 'wrap' }, h('a', { href: '#/q/' + enc(name) + '/task/' + enc(t.id) }, t.id)),
    h('td', { class: 'num' }, t.shard),
    h('td', { title: utc(t.at) }, rel(t.at, now)),
    h('td', { class: 'hide-narrow mono' }, utc(t.at)),
    h('td', { class: 'num hide-narrow' }, t.priority),
    h('td', { class: 'num' }, t.attempts),
    h('td', { class: 'wrap hide-narrow' }, data.state === 'dead' ? (t.lastError || '') : (t.payload + (t.truncated ? '…' : '')))));
  const next = data.next ? (() => { const n = new URLSearchParams(qs); n.set('cursor', data.next); return h('a', { href: '#/q/' + enc(name) + '/tasks?' + n.toString(), id: 'next', class: 'button' }, 'Next page →'); })() : null;
  const filter = { prefix: data.prefix, from: data.from, to: data.to };
  const filtered = data.prefix || data.from !== null || data.to !== null;
  const deadActions = data.state === 'dead' ? h('div', { class: 'actions' },
    h('button', { type: 'button', id: 'replay-matching', disabled: !canAct(), onclick: () => act(name, 'dead-replay', filtered ? { filter } : { all: true }) }, filtered ? 'Replay matching dead letters' : 'Replay all dead letters'),
    h('button', { type: 'button', id: 'purge-matching', class: 'danger', disabled: !canAct(), onclick: () => act(name, 'dead-purge', filtered ? { filter } : { all: true }) }, filtered ? 'Purge matching dead letters' : 'Purge all dead letters')) : null;
  show(h('h1', {}, 'Tasks of ', h('span', { class: 'mono' }, name), ': ', data.state),
    form,
    h('p', { id: 'summary' }, `${fmt(data.tasks.length)} shown · ${fmt(data.inWindow)} ${data.state}` + (data.from !== null || data.to !== null ? ' in the window' : '') +
      (data.prefix ? ` (before the id prefix filter '${data.prefix}')` : '') + ' · per shard: ' + data.inWindowPerShard.map(fmt).join(' / ')),
    deadActions,
    data.tasks.length === 0 ? h('p', { class: 'notice', id: 'empty' }, data.next ? 'No match on this page: the search read a bounded part of each shard. Go on with the next page.' : 'No task matches.') :
      h('div', { class: 'scroll' }, h('table', { id: 'tasks' },
        h('thead', {}, h('tr', {}, h('th', {}, 'id'), h('th', { class: 'num' }, 'shard'), h('th', {}, when), h('th', { class: 'hide-narrow' }, 'UTC'),
          h('th', { class: 'num hide-narrow' }, 'prio'), h('th', { class: 'num' }, 'attempts'), h('th', { class: 'hide-narrow' }, data.state === 'dead' ? 'last error' : 'payload'))),
        h('tbody', {}, rows))),
    h('p', {}, next));
}

function filterForm(name, params, st) {
  const field = (label, n, attrs) => h('label', {}, label, h('input', Object.assign({ name: n, id: 'f-' + n, value: params.get(n) || '' }, attrs)));
  const select = h('select', { name: 'state', id: 'f-state' }, ...['scheduled', 'due', 'inflight', 'dead'].map(v => h('option', { value: v, selected: v === st }, v)));
  return h('form', {
    class: 'filters card', id: 'filters', onsubmit: ev => {
      ev.preventDefault();
      const n = new URLSearchParams();
      for (const el of ev.target.elements) if (el.name && el.value.trim()) n.set(el.name, el.value.trim());
      location.hash = '#/q/' + enc(name) + '/tasks?' + n.toString();
    }
  }, h('label', {}, 'state', select), field('id prefix', 'prefix', { type: 'search', placeholder: 'order-88' }),
    field('from (UTC)', 'from', { placeholder: '2026-12-01T10:00:00Z' }), field('to (UTC)', 'to', { placeholder: '2026-12-01T11:00:00Z' }),
    field('per page', 'limit', { inputmode: 'numeric', size: 4, placeholder: '50' }), h('button', { type: 'submit', class: 'primary' }, 'Show'));
}

async function taskPage(name, id) {
  crumbs({ text: name, href: '#/q/' + enc(name) }, { text: 'task' });
  const t = await api('queues/' + enc(name) + '/tasks/' + enc(id));
  const now = t.serverTime;
  const row = (k, v, attrs) => [h('dt', {}, k), h('dd', attrs || {}, v)];
  const scoreLabel = { scheduled: 'due', due: 'due', inflight: 'lease expires', dead: 'died', succeeded: 'finished' }[t.state];
  const c = t.completion;
  const live = t.state !== 'succeeded';
  const at = h('input', { id: 'reschedule-at', 'aria-label': 'new due time (ISO-8601)', placeholder: '2026-12-01T10:00:00Z', value: utc(Math.max(now, t.score) + 3600000) });
  const waiting = t.state === 'scheduled' || t.state === 'due';
  const back = () => { location.hash = '#/q/' + enc(name); };
  const actions = h('div', { class: 'actions' },
    waiting ? h('button', { type: 'button', id: 'run-now', disabled: !canAct(), onclick: () => act(name, 'run-now', { id }, () => route()) }, 'Run now') : null,
    waiting ? h('label', {}, 'new due time (UTC)', at) : null,
    waiting ? h('button', { type: 'button', id: 'reschedule', disabled: !canAct(), onclick: () => act(name, 'reschedule', { id, at: at.value.trim() }, () => route()) }, 'Reschedule') : null,
    waiting ? h('button', { type: 'button', id: 'cancel', class: 'danger', disabled: !canAct(), onclick: () => act(name, 'cancel', { id }, back) }, 'Cancel task') : null,
    t.state === 'dead' ? h('button', { type: 'button', id: 'replay', class: 'primary', disabled: !canAct(), onclick: () => act(name, 'dead-replay', { id }, () => route()) }, 'Replay') : null,
    t.state === 'dead' ? h('button', { type: 'button', id: 'purge', class: 'danger', disabled: !canAct(), onclick: () => act(name, 'dead-purge', { id }, back) }, 'Purge') : null,
    t.state === 'inflight' ? h('span', { class: 'muted' }, 'A task in flight is running: it is acked, retried or re-delivered after its lease; it cannot be changed from here.') : null);
  show(h('h1', {}, 'Task ', h('span', { class: 'mono', id: 'task-id' }, t.id)),
    h('div', { class: 'card' }, h('dl', { class: 'record', id: 'record' },
      row('state', h('span', { class: 'badge ' + (t.state === 'dead' ? 'paused' : 'running'), id: 'task-state' }, t.state)),
      row('queue / shard', `${t.queue}, shard ${t.shard} of ${t.shards}`),
      // a succeeded task is its completion record alone: its record, payload and options went with its ack
      live ? row(scoreLabel, `${utc(t.score)} (${rel(t.score, now)})`, { id: 'task-score', 'data-ms': t.score }) : [],
      live ? row('priority', t.priority) : [],
      row('attempts', t.attempts, { id: 'task-attempts' }),
      live ? row('last error', t.lastError || '–', { id: 'task-error' }) : [],
      // the server's answer, which the CLI's inspect prints too (there with the lease's expiry, shown above here)
      t.lease ? row('holder', t.lease.who, { id: 'task-holder' }) : [],
      // what the running handler last reported (written at most once a second); gone when the task settles
      t.state === 'inflight' ? row('progress', t.progress
        ? h('span', { id: 'task-progress' }, h('progress', { max: 100, value: t.progress.percent, 'aria-label': 'progress' }),
          ` ${t.progress.percent} %` + (t.progress.note ? ` — ${t.progress.note}` : '') + ` (reported ${human(Math.max(0, now - t.progress.at))} ago)`)
        : h('span', { id: 'task-progress', class: 'muted' }, 'none reported by the handler')) : [],
      // kept after the ack while the queue keeps results: this task's, or an earlier run's beside a task of the same id
      c ? row(t.state === 'succeeded' ? 'succeeded' : 'last success', `${utc(c.finishedAt)} (${rel(c.finishedAt, now)}) after ${c.attempts} ${plural(c.attempts, 'attempt', 'attempts')}`
        + (c.worker ? `, by worker ${c.worker}` : '') + ` (handler ${human(c.handlerMillis)})`, { id: 'task-completion' }) : [],
      c ? row('result', h('pre', { id: 'task-result' }, (c.result || '(none)') + (c.resultTruncated ? ' … (cut at 1 KiB)' : ''))) : [],
      live ? row('enqueued', t.enqueuedAt ? utc(t.enqueuedAt) : '–') : [],
      live ? row('payload', h('pre', { id: 'task-payload' }, t.payload === null || t.payload === undefined ? '(none)' : t.payload)) : [],
      live ? row('record', h('pre', { class: 'muted' }, t.record === null ? '(no record: a bare ZADD task)' : t.record)) : [],
      live && t.recordProblem ? row('record problem', t.recordProblem) : [])),
    live ? optionsCard(t.options, now, t) : null,
    actions);
}

// ---- a task's per-task options (docs/protocol.md, "Per-task options"), as the API structures them ----
const plural = (n, one, many) => (n === 1 ? one : many);
/** A Copy button for the text of element `shown`. */
function copyButton(shown, id) {
  const status = h('span', { class: 'muted copy-status', role: 'status', id: id + '-status' });
  const button = h('button', {
    type: 'button', id, 'aria-label': 'copy ' + shown.textContent,
    onclick: async () => {
      try { await navigator.clipboard.writeText(shown.textContent); status.textContent = 'copied'; } catch (e) {
        // no clipboard access (a plain-http origin, a denied permission): select the text for Ctrl+C
        const range = document.createRange();
        range.selectNodeContents(shown);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        status.textContent = 'selected: press Ctrl+C to copy';
      }
    },
  }, 'Copy');
  return [button, status];
}
function optionsCard(o, now, t) {
  if (o === null || o === undefined) return null; // a malformed record: its problem is shown above
  const row = (k, v, attrs) => [h('dt', {}, k), h('dd', attrs || {}, v)];
  const rows = [];
  if (o.expiry) {
    const e = o.expiry;
    rows.push(row('expires', [h('time', { datetime: new Date(e.expiresAt).toISOString(), title: String(e.expiresAt) + ' ms' }, utc(e.expiresAt)),
      ` (${rel(e.expiresAt, now)}` + ((t.state === 'scheduled' || t.state === 'due') && e.expiresAt > t.score
        ? `; ${human(e.expiresAt - t.score)} after its due time)` : ')'), e.expired ? h('span', { class: 'badge paused', id: 'task-expired' }, 'expired') : null],
    { id: 'task-expires', 'data-ms': e.expiresAt }));
    rows.push(row('on expiry', e.onExpiry === 'discard' ? 'discard: deleted without running, counted as expired'
      : 'dead-letter' + (e.defaultAction ? ' (the default)' : '') + ': into the dead-letter set with the reason "expired"',
    { id: 'task-on-expiry', 'data-action': e.onExpiry }));
  }
  if (o.retry) {
    const r = o.retry;
    const instead = (setting) => h('span', { class: 'muted' }, ` (instead of the worker's ${setting})`);
    if (r.maxAttempts !== undefined) rows.push(row('max attempts', [String(r.maxAttempts), instead('DELAYQ_RETRY_MAX_ATTEMPTS')], { id: 'task-max-attempts' }));
    if (r.backoffMs !== undefined) rows.push(row('first retry after', [human(r.backoffMs), instead('DELAYQ_RETRY_BACKOFF_INITIAL')], { id: 'task-backoff', 'data-ms': r.backoffMs }));
    if (r.backoffMaxMs !== undefined) rows.push(row('longest retry delay', [human(r.backoffMaxMs), instead('DELAYQ_RETRY_BACKOFF_MAX')], { id: 'task-backoff-max', 'data-ms': r.backoffMaxMs }));
    if (r.backoffMultiplier !== undefined) rows.push(row('backoff growth', ['×' + r.backoffMultiplier + ' per attempt', instead('DELAYQ_RETRY_BACKOFF_MULTIPLIER')], { id: 'task-backoff-multiplier' }));
  }
  if (o.dedup) {
    const d = o.dedup;
    if (d.windowMs !== undefined) rows.push(row('dedup window', [human(d.windowMs), h('span', { class: 'muted' }, ' after it is acked, cancelled or dead-lettered, an enqueue of this id is refused')], { id: 'task-dedup-window', 'data-ms': d.windowMs }));
    if (d.debounceMaxWaitMs !== undefined) rows.push(row('debounce', [`fires at most ${human(d.debounceMaxWaitMs)} after its burst's first enqueue`], { id: 'task-debounce-wait', 'data-ms': d.debounceMaxWaitMs }));
    if (d.debounceDeadline !== undefined) rows.push(row('debounce deadline', [h('span', { class: 'mono' }, utc(d.debounceDeadline)), h('span', { class: 'muted' }, ' a later enqueue of the id moves the task no later than this')], { id: 'task-debounce-deadline', 'data-at': d.debounceDeadline }));
  }
  if (o.trace) {
    const tr = o.trace;
    if (tr.ignored) {
      rows.push(row('trace context', [h('code', {}, tr.traceparent), h('span', { class: 'warn-text' }, ` ignored by the worker: ${tr.ignored}`)], { id: 'task-trace-ignored' }));
    } else {
      const shown = tr.url ? h('a', { href: tr.url, id: 'task-trace-link', class: 'mono', target: '_blank', rel: 'noopener noreferrer', title: 'open the trace' }, tr.traceId)
        : h('code', { id: 'task-trace-text' }, tr.traceId);
      rows.push(row('trace id', [shown, ' ', ...copyButton(shown, 'task-trace-copy')], { id: 'task-trace-id', 'data-trace-id': tr.traceId }));
      rows.push(row('parent span', h('code', {}, tr.parentId), { id: 'task-trace-parent' }));
      rows.push(row('sampled', `${tr.sampled ? 'yes' : 'no'} (flags ${tr.flags})`, { id: 'task-trace-sampled' }));
      if (tr.tracestate) rows.push(row('tracestate', h('code', {}, tr.tracestate), { id: 'task-tracestate' }));
    }
  }
  if (o.other) {
    for (const [name, value] of Object.entries(o.other)) {
      rows.push(row(h('code', {}, name), typeof value === 'string' ? value : h('code', {}, JSON.stringify(value)), { 'data-field': name, class: 'task-field' }));
    }
  }
  const count = Object.keys(o).length;
  return h('section', { class: 'card', id: 'task-options', 'aria-labelledby': 'task-options-title' },
    h('h2', { id: 'task-options-title' }, 'Per-task options'),
    rows.length === 0 ? h('p', { class: 'muted', id: 'task-options-none' }, 'None: the worker\'s retry settings apply, the task never expires and starts a trace of its own.')
      : h('dl', { class: 'record', id: 'task-options-list', 'data-groups': count }, rows.flat()),
    o.other ? h('p', { class: 'muted' }, `${plural(Object.keys(o.other).length, 'A field', 'Fields')} of the record beyond delayq's own, shown as stored (a task group key, or a field of a newer producer).`) : null);
}

// ---- router ----
async function route() {
  clearInterval(state.timer);
  const hash = location.hash || '#/';
  const [path, query] = hash.slice(1).split('?');
  const params = new URLSearchParams(query || '');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const pending = flash; flash = null;
  try {
    if (parts.length === 0) { await overviewPage(); state.timer = setInterval(() => refresh(overviewPage), 30000); }
    else if (parts[0] === 'q' && parts.length === 2) { await queuePage(parts[1]); state.timer = setInterval(() => refresh(() => queuePage(parts[1])), 30000); }
    else if (parts[0] === 'q' && parts[2] === 'tasks') await tasksPage(parts[1], params);
    else if (parts[0] === 'q' && parts[2] === 'task' && parts.length === 4) await taskPage(parts[1], parts[3]);
    else if (parts[0] === 'q' && parts[2] === 'bulk' && parts.length === 3) await bulkPage(parts[1]);
    else throw new ApiError(404, 'page', 'no page at ' + hash);
    document.title = (parts[1] ? parts[1] + ' · ' : '') + 'delayq console';
  } catch (e) {
    if (!e.rendered) main().replaceChildren(h('h1', {}, 'Something went wrong'), errorBox(e), h('p', {}, h('a', { href: '#/' }, 'All queues')));
  }
  if (pending) main().prepend(h('div', { id: 'flash' }, pending));
  main().setAttribute('data-ready', Date.now());
}
async function refresh(render) {
  if (document.getElementById('confirm').open || document.activeElement && document.activeElement.tagName === 'INPUT') return;
  try { await render(); main().setAttribute('data-ready', Date.now()); } catch (e) { /* the next refresh tries again */ }
}

document.addEventListener('keydown', ev => {
  if (ev.target.closest && ev.target.closest('input, select, textarea, dialog') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === '/') { const f = document.getElementById('f-prefix') || document.getElementById('find-id'); if (f) { ev.preventDefault(); f.focus(); } }
  else if (ev.key === 'g') location.hash = '#/';
  else if (ev.key === 'r') route();
});
window.addEventListener('hashchange', () => { route().then(() => main().focus({ preventScroll: true })); });
loadSession().then(route);
