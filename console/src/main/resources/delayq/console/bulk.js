// ---- bulk actions on waiting tasks: a filter, a preview (count and the first due), confirm, then the job's progress ----
// Uses app.js's helpers (h, api, post, show, crumbs, canAct, errorBox, notice, fmt, utc, enc); docs/console.md, "Bulk actions".
async function bulkPage(name) {
  crumbs({ text: name, href: '#/q/' + enc(name) }, { text: 'bulk actions' });
  const base = 'queues/' + enc(name) + '/bulk';
  const input = (id, label, attrs) => h('label', {}, label, h('input', Object.assign({ id, name: id, autocomplete: 'off' }, attrs || {})));
  const select = (id, label, options) => h('label', {}, label, h('select', { id, name: id }, ...options.map(([v, t]) => h('option', { value: v }, t))));
  const value = id => document.getElementById(id).value.trim();
  const body = () => ({
    filter: { state: value('b-state'), prefix: value('b-prefix'), from: value('b-from'), to: value('b-to'), group: value('b-group'), priority: value('b-priority') },
    action: { kind: value('b-action'), at: value('b-at'), shift: value('b-shift'), reason: value('b-reason') }
  });
  const result = h('div', { id: 'bulk-result', 'aria-live': 'polite' });
  const jobs = h('div', { id: 'bulk-jobs' });

  async function preview() {
    let p;
    try { p = await post(base, body()); } catch (e) { result.replaceChildren(errorBox(e)); return; }
    result.replaceChildren(h('div', { class: 'card', id: 'bulk-preview-card' },
      h('p', { id: 'bulk-message' }, p.message),
      h('p', { class: 'muted' }, `Due from ${utc(p.earliest)} to ${utc(p.latest)}; the ${p.sample.length} due first:`),
      h('div', { class: 'scroll' }, h('table', { id: 'bulk-sample' },
        h('thead', {}, h('tr', {}, h('th', {}, 'id'), h('th', { class: 'num' }, 'shard'), h('th', {}, 'due'))),
        h('tbody', {}, p.sample.map(s => h('tr', {}, h('td', { class: 'mono' }, h('a', { href: '#/q/' + enc(name) + '/task/' + enc(s.id) }, s.id)),
          h('td', { class: 'num' }, s.shard), h('td', {}, utc(s.dueAt))))))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'bulk-confirm', class: 'danger', onclick: confirmRun }, 'Run on ' + fmt(p.matched) + ' task' + (p.matched === 1 ? '' : 's')),
        h('button', { type: 'button', id: 'bulk-dismiss', onclick: () => result.replaceChildren(notice('Nothing was changed.')) }, 'Cancel'))));
  }

  async function confirmRun() {
    let j;
    try { j = await post(base, Object.assign(body(), { confirm: true })); } catch (e) { result.replaceChildren(errorBox(e)); return; }
    watch(j.id);
  }

  function watch(id) {
    const bar = h('progress', { id: 'bulk-progress', max: 1, value: 0 });
    const text = h('span', { id: 'bulk-progress-text' });
    result.replaceChildren(h('div', { class: 'card' }, h('p', {}, 'Job ', h('span', { class: 'mono', id: 'bulk-job' }, id)), bar, ' ', text));
    const tick = async () => {
      if (!document.body.contains(bar)) return; // the page was left: stop polling
      let j;
      try { j = await api(base + '/' + enc(id)); } catch (e) { text.replaceChildren(errorBox(e)); return; }
      bar.max = Math.max(1, j.total);
      bar.value = Math.min(j.done, bar.max);
      text.textContent = `${fmt(j.done)} / ${fmt(j.total)} done` + (j.skipped ? `, ${fmt(j.skipped)} skipped` : '') + ' · ' + j.status + (j.note ? ' (' + j.note + ')' : '');
      text.setAttribute('data-status', j.status);
      if (j.status === 'running' && j.runningHere) setTimeout(tick, 500); else listJobs();
    };
    tick();
  }

  async function listJobs() {
    let list;
    try { list = (await api(base)).jobs; } catch (e) { jobs.replaceChildren(errorBox(e)); return; }
    if (list.length === 0) { jobs.replaceChildren(h('p', { class: 'muted' }, 'No bulk jobs on this queue yet.')); return; }
    jobs.replaceChildren(h('div', { class: 'scroll' }, h('table', { id: 'bulk-job-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'job'), h('th', {}, 'action'), h('th', {}, 'filter'), h('th', { class: 'num' }, 'done'),
        h('th', {}, 'status'), h('th', {}, 'by'), h('th', {}, 'started'), h('th', {}, ''))),
      h('tbody', {}, list.map(j => h('tr', { 'data-job': j.id },
        h('td', { class: 'mono' }, j.id), h('td', {}, j.actionText), h('td', {}, j.filterText),
        h('td', { class: 'num' }, fmt(j.done) + ' / ' + fmt(j.total)), h('td', {}, j.status + (j.note ? ' — ' + j.note : '')),
        h('td', {}, j.by), h('td', {}, utc(j.createdAt)),
        h('td', {}, j.status !== 'done' && !j.runningHere ? h('button', { type: 'button', class: 'resume-job', disabled: !canAct(), onclick: async () => {
          try { await post(base + '/' + enc(j.id) + '/resume', {}); watch(j.id); } catch (e) { result.replaceChildren(errorBox(e)); }
        } }, 'Resume') : null)))))));
  }

  show(
    h('h1', {}, 'Bulk actions on ', h('span', { class: 'mono' }, name)),
    h('p', { class: 'muted' }, 'Act on every waiting task a filter matches. Tasks in flight are never touched. Preview first: nothing changes until you confirm; ' +
      'the job then works through each shard in small batches, and a job that stopped can be resumed.'),
    h('form', { class: 'filters card', id: 'bulk-form', onsubmit: ev => { ev.preventDefault(); preview(); } },
      select('b-state', 'State', [['waiting', 'waiting (not in flight)'], ['scheduled', 'scheduled (due later)'], ['due', 'due now']]),
      input('b-prefix', 'Id prefix', { type: 'search', placeholder: 'order-' }),
      input('b-from', 'Due from (inclusive)', { placeholder: '2026-12-01T00:00:00Z' }),
      input('b-to', 'Due before', { placeholder: '2026-12-02T00:00:00Z' }),
      input('b-group', 'Group', { placeholder: 'any' }),
      select('b-priority', 'Priority', [['', 'any'], ['0', '0'], ['1', '1'], ['2', '2']]),
      select('b-action', 'Action', [['cancel', 'cancel'], ['reschedule', 'reschedule to a time'], ['shift', 'shift by a duration'], ['run-now', 'run now'], ['dead-letter', 'move to dead letters']]),
      input('b-at', 'New due time (reschedule)', { placeholder: '2026-12-01T10:00:00Z' }),
      input('b-shift', 'Shift (shift)', { placeholder: '+2h or -30m' }),
      input('b-reason', 'Reason (dead letters)', { placeholder: 'stale after the outage' }),
      h('button', { type: 'submit', id: 'bulk-preview', disabled: !canAct() }, 'Preview'),
      canAct() ? null : h('span', { class: 'muted' }, state.session.readOnly ? 'read-only console' : 'sign in to act')),
    result,
    h('h2', {}, 'Jobs'),
    jobs);
  await listJobs();
}
