// kpsim serve: the page's script. It keeps the input (files), the options and the last two runs,
// asks the server to run (POST /api/simulate with output html: the report, whose embedded JSON is
// the exact `simulate -o json`), frames the reports side by side and asks /api/diff what changed.
// Toggles edit the YAML text the way the chapter's demo does. It decides nothing about scheduling.
(function () {
  'use strict';

  // seq numbers the runs asked for; only the newest one's answers are drawn, and asking for a new
  // one aborts the request of the one before (the server then has one fewer run to do).
  var state = { files: [], current: 0, prev: null, cur: null, seq: 0, timer: null, inflight: null,
                explainSeq: 0 };
  var $ = function (id) { return document.getElementById(id); };
  var editor = $('editor');

  function setStatus(text, error) {
    $('status').textContent = text;
    $('status').className = error ? 'error' : '';
  }

  // --- files ---------------------------------------------------------------------------------

  function drawTabs() {
    var tabs = $('tabs');
    tabs.textContent = '';
    state.files.forEach(function (f, i) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = f.name;
      b.className = i === state.current ? 'current' : '';
      b.addEventListener('click', function () { state.current = i; drawTabs(); });
      tabs.appendChild(b);
    });
    var f = state.files[state.current];
    editor.value = f ? f.content : '';
    editor.disabled = !f;
  }

  function setFiles(files, options) {
    state.files = files.map(function (f) { return { name: f.name, content: f.content }; });
    state.current = 0;
    if (options) {
      $('opt-profile').value = options.profile || 'default';
      $('opt-gates').value = options.featureGates || '';
      $('opt-scaleup').checked = options.scaleUp === true;
    }
    state.prev = null;
    state.cur = null;
    drawTabs();
    drawToggles();
    run();
  }

  editor.addEventListener('input', function () {
    var f = state.files[state.current];
    if (!f) return;
    f.content = editor.value;
    changed();
  });

  $('add-file').addEventListener('click', function () {
    var n = state.files.length + 1;
    state.files.push({ name: 'file-' + n + '.yaml', content: '' });
    state.current = state.files.length - 1;
    drawTabs();
  });
  $('remove-file').addEventListener('click', function () {
    if (!state.files.length) return;
    state.files.splice(state.current, 1);
    state.current = 0;
    drawTabs();
    changed();
  });
  $('upload-btn').addEventListener('click', function () { $('upload').click(); });
  $('upload').addEventListener('change', function (ev) {
    var list = Array.prototype.slice.call(ev.target.files);
    var left = list.length;
    list.forEach(function (file) {
      var reader = new FileReader();
      reader.onload = function () {
        state.files.push({ name: file.name, content: String(reader.result) });
        if (--left === 0) { state.current = state.files.length - 1; drawTabs(); changed(); }
      };
      reader.onerror = function () {
        setStatus('cannot read ' + file.name + ': ' + (reader.error ? reader.error.message : 'unknown error'), true);
        if (--left === 0) { drawTabs(); changed(); }
      };
      reader.readAsText(file);
    });
  });
  ['opt-profile', 'opt-gates', 'opt-seed', 'opt-until', 'opt-scaleup', 'opt-expander', 'opt-delay'].forEach(function (id) {
    $(id).addEventListener('change', changed);
  });
  $('run').addEventListener('click', run);

  // An edit: the toggles follow the text, and (re-run on change) a run follows after a pause.
  function changed() {
    drawToggles();
    if (!$('auto').checked) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(run, 500);
  }

  // --- runs ----------------------------------------------------------------------------------

  function options() {
    var o = { output: 'html', profile: $('opt-profile').value };
    if ($('opt-gates').value.trim()) o.featureGates = $('opt-gates').value.trim();
    if ($('opt-seed').value.trim()) o.seed = $('opt-seed').value.trim();
    if ($('opt-until').value.trim()) o.until = $('opt-until').value.trim();
    // Preempt or scale up: the report then carries the comparison panel.
    if ($('opt-scaleup').checked) {
      o.scaleUp = true;
      o.expander = $('opt-expander').value;
      if ($('opt-delay').value.trim()) o.scaleUpDelay = $('opt-delay').value.trim();
    }
    return o;
  }

  function post(path, body, signal) {
    return fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                         body: JSON.stringify(body), signal: signal })
      .then(function (res) {
        return res.text().then(function (text) {
          if (!res.ok) {
            var message = text;
            try { message = JSON.parse(text).error; } catch (e) { /* not JSON */ }
            throw new Error(message);
          }
          return text;
        });
      });
  }

  // The JSON a report page embeds (#kpsim-data): the exact `simulate -o json` of the run, decoded
  // by web/embedded.js (embedded before this script). Resolves with the parsed JSON, or null.
  function embeddedJson(html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var holder = doc.getElementById('kpsim-data');
    if (!holder) return Promise.resolve(null);
    return kpsimReadEmbedded(holder).then(JSON.parse);
  }

  function run() {
    if (!state.files.length) { setStatus('no input: choose an example, paste or upload a file'); return; }
    var seq = ++state.seq;
    if (state.inflight) state.inflight.abort();
    var controller = new AbortController();
    state.inflight = controller;
    setStatus('running…');
    var started = performance.now();
    var asked = label();  // the options of this run, as they were when it was asked for
    var request = { files: state.files.map(function (f) { return { name: f.name, content: f.content }; }),
                    options: options() };
    post('/api/simulate', request, controller.signal)
      .then(function (html) {
        if (seq !== state.seq) return null;  // a newer run was asked for meanwhile
        return embeddedJson(html).then(function (json) { return { html: html, json: json }; });
      })
      .then(function (answer) {
        if (!answer || seq !== state.seq) return;
        var html = answer.html, json = answer.json;
        state.prev = state.cur;
        state.cur = { id: seq, html: html, json: json, label: asked, request: request };
        var ms = Math.round(performance.now() - started);
        return show(seq).then(function () {
          if (seq !== state.seq) return;
          setStatus('ran in ' + ms + ' ms' + (json ? ' · ' + json.endReason + ' at ' + json.endTime + 's' : ''));
          finished();
        });
      })
      .catch(function (err) {
        if (seq !== state.seq || err.name === 'AbortError') return;
        setStatus(err.message, true);
        finished();
      });
  }

  // Counts the runs answered (#status data-runs), so that a run telling the same as the one
  // before is still seen as new.
  function finished() {
    var el = $('status');
    el.setAttribute('data-runs', String(Number(el.getAttribute('data-runs') || 0) + 1));
  }

  function label() {
    var o = options();
    return 'profile ' + o.profile + (o.featureGates ? ', ' + o.featureGates : '') +
           ', seed ' + (o.seed || 1) + (o.until ? ', until ' + o.until : '') +
           (o.scaleUp ? ', scale-up (' + o.expander + ', ' + (o.scaleUpDelay || '2m') + ')' : '');
  }

  // Frames the runs and draws what changed; resolves once the page shows both. `seq`: the run
  // shown; a diff answer that comes after a newer run is dropped.
  function show(seq) {
    $('frame-cur').srcdoc = state.cur.html;
    $('frame-cur').setAttribute('data-run', String(state.cur.id));  // the served report echoes it
    $('cur-title').textContent = 'this run (' + state.cur.label + ')';
    var two = !!state.prev;
    $('run-prev').classList.toggle('hidden', !two);
    $('runs').classList.toggle('single', !two);
    if (two) {
      $('frame-prev').srcdoc = state.prev.html;
      $('prev-title').textContent = 'previous run (' + state.prev.label + ')';
      return post('/api/diff', { a: state.prev.json, b: state.cur.json, labels: ['previous', 'this run'] })
        .then(function (text) { if (seq === state.seq) drawDiff(JSON.parse(text)); })
        .catch(function (err) { if (seq === state.seq) $('diff').textContent = 'diff: ' + err.message; });
    }
    $('diff').textContent = '';
    return Promise.resolve();
  }

  // --- explain -------------------------------------------------------------------------------

  // A click on a pod or a marker in a report asks (postMessage, web/app.js openExplain) for the
  // explain of that attempt (or the pod's first one): the server explains it over the same files
  // and options as that run, and the page shows it above the runs.
  // The reports learn that this page frames them (and which run they show) when they load; the
  // run id a click echoes picks the files and options it was made with, even if a newer run has
  // replaced it in the frame meanwhile.
  ['frame-cur', 'frame-prev'].forEach(function (id) {
    $(id).addEventListener('load', function () {
      var run = id === 'frame-cur' ? state.cur : state.prev;
      if (run && $(id).contentWindow) $(id).contentWindow.postMessage({ kpsim: 'serve', run: run.id }, '*');
    });
  });
  window.addEventListener('message', function (ev) {
    var m = ev.data;
    if (!m || m.kpsim !== 'explain' || typeof m.pod !== 'string') return;
    if (ev.source !== $('frame-cur').contentWindow && ev.source !== $('frame-prev').contentWindow) return;
    var run = [state.cur, state.prev].filter(function (r) { return r && r.id === m.run; })[0];
    if (run && run.request) explain(run, m.pod, m.attempt);
  });

  function explain(run, pod, attempt) {
    var o = {};
    Object.keys(run.request.options).forEach(function (k) { o[k] = run.request.options[k]; });
    o.output = 'html';
    o.pod = pod;
    // The book profile explains the state at time 0: it has no rounds to ask for.
    if (attempt > 0 && o.profile !== 'book') o.attempt = attempt;
    var seq = ++state.explainSeq;
    // A fresh frame each time: Chromium may stop laying out a frame that was hidden.
    var frame = $('frame-explain');
    frame.parentNode.replaceChild(frame.cloneNode(false), frame);
    $('explain-title').textContent = 'explain ' + pod + (o.attempt ? ', round ' + o.attempt : '') + '…';
    $('explain-panel').classList.remove('hidden');
    post('/api/explain', { files: run.request.files, options: o })
      .then(function (html) {
        if (seq !== state.explainSeq) return;
        $('explain-title').textContent = 'explain ' + pod + (o.attempt ? ', round ' + o.attempt : '');
        $('frame-explain').srcdoc = html;
      })
      .catch(function (err) {
        if (seq !== state.explainSeq) return;
        $('explain-title').textContent = 'explain ' + pod + ': ' + err.message;
        $('frame-explain').srcdoc = '';
      });
  }

  $('explain-close').addEventListener('click', function () {
    ++state.explainSeq;
    $('explain-panel').classList.add('hidden');
  });

  // --- what changed --------------------------------------------------------------------------

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function side(s) {
    if (!s) return 'absent';
    return s.node ? s.state + ' on ' + s.node : s.state;
  }

  function wait(s) {
    if (!s || s.wait === null) return '-';
    return s.wait + 's' + (s.state === 'Pending' ? ' (still pending)' : '');
  }

  function drawDiff(d) {
    var box = $('diff');
    box.textContent = '';
    box.appendChild(el('h3', d.identical ? 'No change from the previous run'
                                         : 'What changed from the previous run'));
    var figures = el('table');
    figures.id = 'diff-figures';
    var head = el('tr');
    ['', 'previous', 'this run'].forEach(function (t) { head.appendChild(el('th', t)); });
    figures.appendChild(head);
    [['victims', 'victims'], ['PDB violations', 'pdbViolations'], ['evictions', 'evictions'],
     ['running at end', 'running'], ['pending at end', 'pending']].forEach(function (row) {
      var a = d.a[row[1]], b = d.b[row[1]];
      var tr = el('tr', undefined, a !== b ? 'changed' : '');
      tr.appendChild(el('th', row[0]));
      tr.appendChild(el('td', String(a)));
      tr.appendChild(el('td', String(b)));
      figures.appendChild(tr);
    });
    box.appendChild(figures);
    if (d.identical) return;
    var victims = el('p');
    victims.id = 'diff-victims';
    victims.appendChild(document.createTextNode('Victims only before: '));
    victims.appendChild(el('span', d.victimsOnlyInA.map(function (v) { return v.pod; }).join(', ') || 'none', 'only'));
    victims.appendChild(document.createTextNode(' · only now: '));
    victims.appendChild(el('span', d.victimsOnlyInB.map(function (v) { return v.pod; }).join(', ') || 'none', 'only'));
    box.appendChild(victims);
    table(box, 'diff-placements', 'Placements that changed', d.placements, side);
    table(box, 'diff-waits', 'Waits that changed', d.waits, wait);
  }

  function table(box, id, title, rows, show) {
    if (!rows.length) return;
    box.appendChild(el('h4', title + ' (' + rows.length + ')'));
    var t = el('table');
    t.id = id;
    var head = el('tr');
    ['pod', 'previous', 'this run'].forEach(function (h) { head.appendChild(el('th', h)); });
    t.appendChild(head);
    var SHOWN = 100;  // the rest is counted: kpsim diff lists them all
    rows.slice(0, SHOWN).forEach(function (c) {
      var tr = el('tr', undefined, 'changed');
      tr.appendChild(el('td', (c.a || c.b).pod + (c.a && c.b && c.a.pod !== c.b.pod ? ' / ' + c.b.pod : '')));
      tr.appendChild(el('td', show(c.a)));
      tr.appendChild(el('td', show(c.b)));
      t.appendChild(tr);
    });
    box.appendChild(t);
    if (rows.length > SHOWN) box.appendChild(el('p', 'and ' + (rows.length - SHOWN) + ' more', 'note'));
  }

  // --- toggles: small edits of the YAML text ------------------------------------------------
  // A document is the text between `---` lines; its kind, name, namespace, labels and a few
  // fields are read from its lines (top-level `kind:`, `metadata:` children). JSON files are
  // left alone.

  function docs(text) { return text.split(/^---[ \t]*$/m); }

  function field(doc, re) {
    var m = doc.match(re);
    return m ? m[1].trim().replace(/^["']|["']$/g, '') : '';
  }

  function info(doc) {
    return {
      kind: field(doc, /^kind:[ \t]*(\S+)/m),
      name: field(doc, /^metadata:[\s\S]*?^[ \t]+name:[ \t]*(\S+)/m),
      namespace: field(doc, /^metadata:[\s\S]*?^[ \t]+namespace:[ \t]*(\S+)/m) || 'default',
      app: field(doc, /^metadata:[\s\S]*?^[ \t]+labels:[\s\S]*?^[ \t]+app:[ \t]*(\S+)/m),
      pdbApp: field(doc, /^[ \t]+matchLabels:[\s\S]*?^[ \t]+app:[ \t]*(\S+)/m),
      policy: field(doc, /^preemptionPolicy:[ \t]*(\S+)/m) || 'PreemptLowerPriority',
      className: field(doc, /^[ \t]+priorityClassName:[ \t]*(\S+)/m)
    };
  }

  // Every YAML document of the input: {file, index, doc, info}.
  function allDocs() {
    var out = [];
    state.files.forEach(function (f, fi) {
      if (/\.json$/i.test(f.name)) return;
      docs(f.content).forEach(function (d, di) { out.push({ file: fi, index: di, doc: d, info: info(d) }); });
    });
    return out;
  }

  function replaceDoc(entry, text) {
    var f = state.files[entry.file];
    var parts = docs(f.content);
    parts[entry.index] = text;
    f.content = parts.join('---');
  }

  function removeDoc(entry) {
    var f = state.files[entry.file];
    var parts = docs(f.content);
    parts.splice(entry.index, 1);
    f.content = parts.join('---');
  }

  function edited() {
    drawTabs();
    changed();
    if (!$('auto').checked) run();
  }

  function setPdb(app, on, namespace, count) {
    var existing = allDocs().filter(function (e) { return e.info.kind === 'PodDisruptionBudget' && e.info.pdbApp === app; });
    if (on && !existing.length) {
      // Into the first YAML file (a JSON file cannot take a YAML document), else a new one.
      var f = state.files.filter(function (x) { return !/\.json$/i.test(x.name); })[0];
      if (!f) {
        f = { name: 'pdbs.yaml', content: '' };
        state.files.push(f);
      }
      f.content = f.content.replace(/\s*$/, '\n') + '---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n' +
        'metadata:\n  name: ' + app + '-pdb\n  namespace: ' + namespace + '\nspec:\n  minAvailable: ' + count +
        '\n  selector:\n    matchLabels:\n      app: ' + app + '\n';
    } else if (!on) {
      existing.reverse().forEach(removeDoc);
    }
    edited();
  }

  function setPolicy(entry, policy) {
    var doc = entry.doc;
    if (/^preemptionPolicy:/m.test(doc)) {
      doc = doc.replace(/^preemptionPolicy:.*$/m, 'preemptionPolicy: ' + policy);
    } else {
      doc = doc.replace(/\s*$/, '\n') + 'preemptionPolicy: ' + policy + '\n';
    }
    replaceDoc(entry, doc);
    edited();
  }

  // Sets (or, with an empty name, removes) the pod's spec.priorityClassName, indented as the
  // spec's first field is.
  function setClass(entry, name) {
    var doc = entry.doc;
    if (/^[ \t]+priorityClassName:/m.test(doc)) {
      doc = name ? doc.replace(/^([ \t]+)priorityClassName:.*$/m, '$1priorityClassName: ' + name)
                 : doc.replace(/^[ \t]+priorityClassName:.*\n?/m, '');
    } else if (name) {
      var indent = (doc.match(/^spec:[ \t]*\n([ \t]+)\S/m) || [null, '  '])[1];
      if (!/^spec:[ \t]*$/m.test(doc)) {
        setStatus('Pod ' + entry.info.name + ': no block-style spec: line to add the class to; edit it by hand', true);
        return;
      }
      doc = doc.replace(/^spec:[ \t]*$/m, 'spec:\n' + indent + 'priorityClassName: ' + name);
    }
    replaceDoc(entry, doc);
    edited();
  }

  function drawToggles() {
    var box = $('toggles');
    box.textContent = '';
    var entries = allDocs();
    var pods = entries.filter(function (e) { return e.info.kind === 'Pod'; });
    var classes = entries.filter(function (e) { return e.info.kind === 'PriorityClass'; });
    var apps = {};
    pods.forEach(function (p) {
      if (!p.info.app) return;
      if (!apps[p.info.app]) apps[p.info.app] = { namespace: p.info.namespace, count: 0 };
      apps[p.info.app].count++;
    });
    Object.keys(apps).sort().forEach(function (app) {
      var protectedNow = entries.some(function (e) { return e.info.kind === 'PodDisruptionBudget' && e.info.pdbApp === app; });
      var row = el('label', undefined, 'toggle');
      var box2 = el('input');
      box2.type = 'checkbox';
      box2.checked = protectedNow;
      box2.setAttribute('data-pdb-app', app);
      box2.addEventListener('change', function () { setPdb(app, box2.checked, apps[app].namespace, apps[app].count); });
      row.appendChild(box2);
      row.appendChild(document.createTextNode('protect app=' + app + ' with a PodDisruptionBudget'));
      box.appendChild(row);
    });
    classes.forEach(function (c) {
      var row = el('label', undefined, 'toggle');
      row.appendChild(document.createTextNode('PriorityClass ' + c.info.name + ': '));
      var select = el('select');
      select.setAttribute('data-class-policy', c.info.name);
      ['PreemptLowerPriority', 'Never'].forEach(function (p) {
        var o = el('option', p);
        o.selected = c.info.policy === p;
        select.appendChild(o);
      });
      select.addEventListener('change', function () { setPolicy(c, select.value); });
      row.appendChild(select);
      box.appendChild(row);
    });
    if (classes.length) {
      pods.forEach(function (p) {
        var row = el('label', undefined, 'toggle');
        row.appendChild(document.createTextNode('Pod ' + p.info.name + ' priority class: '));
        var select = el('select');
        select.setAttribute('data-pod-class', p.info.name);
        var none = el('option', '(none)');
        none.value = '';
        select.appendChild(none);
        classes.forEach(function (c) {
          var o = el('option', c.info.name);
          o.selected = p.info.className === c.info.name;
          select.appendChild(o);
        });
        select.addEventListener('change', function () { setClass(p, select.value); });
        row.appendChild(select);
        box.appendChild(row);
      });
    }
    if (!box.children.length) box.appendChild(el('p', 'No pods with an app label or PriorityClasses in the YAML.', 'note'));
  }

  // --- start ---------------------------------------------------------------------------------

  fetch('/api/examples').then(function (r) { return r.json(); }).then(function (examples) {
    var select = $('examples');
    examples.forEach(function (ex, i) {
      var o = el('option', ex.name);
      o.value = String(i);
      select.appendChild(o);
    });
    select.addEventListener('change', function () {
      var ex = examples[Number(select.value)];
      if (ex) setFiles([{ name: ex.name, content: ex.content }], ex.options);
    });
    return fetch('/api/files').then(function (r) { return r.json(); }).then(function (files) {
      if (files.length) {
        setFiles(files);
      } else {
        var first = examples.findIndex(function (ex) { return ex.name === 'cascade.yaml'; });
        select.value = String(first >= 0 ? first : 0);
        select.dispatchEvent(new Event('change'));
      }
    });
  }).catch(function (err) { setStatus('cannot reach the server: ' + err.message, true); });
})();
