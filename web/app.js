// kpsim report script. It reads the embedded JSON (#kpsim-data, the exact `-o json` output) and
// draws the simulate timeline: one lane per node, pods as bars from Scheduled to Deleted (or the
// end), nominations, Preempted markers with arrows from the preemptor, Scenario steps as dashed
// lines, and the pending pods of the scheduling queue. It decides nothing about scheduling: every
// bar, marker and arrow stands for one event or one pod outcome of the JSON, placed on an axis. It
// also cross-highlights a pod in the timeline and the tables, pages long tables and steps through
// the capacity steppers. ES5 plus Promise (and DecompressionStream for pages past 1 MiB), no
// network, works from a file:// URL.
(function () {
  'use strict';

  var SVGNS = 'http://www.w3.org/2000/svg';
  // Past these sizes the chart shows the first lanes, rows and events only (the tables list all).
  var MAX_NODE_LANES = 200, MAX_QUEUE_ROWS = 200, MAX_SEQUENCE_WIDTH = 60000;
  var PALETTE = ['#5f3dc4', '#1971c2', '#0c8599', '#2f9e44', '#74b816', '#d6336c', '#3b5bdb',
                 '#868e96'];

  var holder = document.getElementById('kpsim-data');
  if (!holder) return;
  var data, chart, model, mode, measure;
  crossHighlight();
  pagedTables();
  steppers();
  window.addEventListener('hashchange', openFromHash);
  openFromHash();
  if (document.body.getAttribute('data-kind') !== 'simulate') return;
  chart = document.getElementById('timeline-chart');
  if (!chart) return;
  kpsimReadEmbedded(holder).then(function (text) {
    data = JSON.parse(text);
    model = buildModel(data);
    // The axis: simulated time, or event order when every event happened at one instant (the
    // book profile) or when the page's URL ends in #order.
    mode = model.maxTime > 0 && location.hash !== '#order' ? 'time' : 'sequence';
    measure = textMeasurer('12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif');
    drawControls();
    drawLegend();
    draw();
    var resizeTimer = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(draw, 150);
    });
  }).catch(function () { /* no data, no chart: the tables stand alone */ });

  // ------------------------------------------------------------------------------------------
  // The model: per pod, the intervals the events delimit.

  function num(v) { return typeof v === 'number' && isFinite(v) ? v : 0; }

  function shortName(pod) { return pod.indexOf('default/') === 0 ? pod.slice(8) : pod; }

  function fmtTime(t) { return (Math.round(t * 1000) / 1000) + 's'; }

  // Segments: {kind: 'bound'|'nominated', node, start, end, how, preempt, termFrom}; pending
  // intervals: {start, end}. A point is {i: event index (-1 = before the first event, N = the
  // end), t: simulated seconds, open: true for the end of the run}.
  function buildModel(d) {
    var events = d.events || [];
    var n = events.length;
    var maxTime = num(d.endTime);
    events.forEach(function (e) { maxTime = Math.max(maxTime, num(e.time)); });
    var end = {i: n, t: maxTime, open: true};
    var pods = [];
    var byName = {};
    function pod(name) {
      if (!byName[name]) {
        byName[name] = {name: name, index: -1, priority: 0, state: '', group: '', outcome: {},
                        segs: [], pends: [], marks: []};
        pods.push(byName[name]);
      }
      return byName[name];
    }
    (d.pods || []).forEach(function (p, idx) {
      var m = pod(p.pod);
      m.index = idx;
      m.priority = num(p.priority);
      m.state = p.state || '';
      m.group = p.podGroup || '';
      m.outcome = p;
    });
    var perPod = {};
    events.forEach(function (e, k) {
      if (!e.pod) return;  // a Scenario step on a node or a PDB: in the event list only
      pod(e.pod);
      (perPod[e.pod] = perPod[e.pod] || []).push(k);
    });
    function at(k) { return {i: k, t: num(events[k].time)}; }
    var preemptions = [];

    pods.forEach(function (p) {
      var ks = perPod[p.name] || [];
      var o = p.outcome;
      var cur = null, nom = null, pend = null;
      // A pod already bound before its first Scheduled event: its first Preempted or Deleted
      // names the node; with no events at all, the outcome does.
      var hasScheduled = ks.some(function (k) { return events[k].reason === 'Scheduled'; });
      for (var j = 0; j < ks.length; j++) {
        var first = events[ks[j]];
        if (first.reason === 'Scheduled') break;
        if ((first.reason === 'Preempted' || first.reason === 'Deleted') && first.node) {
          cur = {kind: 'bound', node: first.node, start: {i: -1, t: 0}};
          break;
        }
      }
      if (!cur && !hasScheduled && o.node && o.scheduledAt != null) {
        var start = {i: -1, t: num(o.scheduledAt)};
        if (ks.length && events[ks[0]].reason === 'Created') start.i = ks[0];
        cur = {kind: 'bound', node: o.node, start: start};
      }
      function endBound(pt, how) { cur.end = pt; cur.how = how; p.segs.push(cur); cur = null; }
      function endNom(pt, how) { nom.end = pt; nom.how = how; p.segs.push(nom); nom = null; }
      function endPend(pt) { pend.end = pt; p.pends.push(pend); pend = null; }
      // Back in scheduling while its bound segment was terminating: it left the node when it
      // was preempted (evicted at once, as the book profile does).
      function evictedIfTerminating() {
        if (cur && cur.termFrom) {
          var left = cur.termFrom;
          cur.termFrom = null;
          endBound(left, 'evicted');
          pend = {start: left};
        }
      }
      ks.forEach(function (k) {
        var e = events[k];
        switch (e.reason) {
          case 'Created':
            p.marks.push({type: 'created', k: k});
            if (!cur && !pend) pend = {start: at(k)};
            break;
          case 'FailedScheduling':
            evictedIfTerminating();
            if (!cur && !pend) pend = {start: at(k)};
            p.marks.push({type: 'failed', k: k});
            break;
          case 'Nominated':
            if (nom) {
              nom.endMessage = e.message;
              endNom(at(k), e.node ? 'moved' : 'cleared');
            }
            if (e.node) nom = {kind: 'nominated', node: e.node, start: at(k), k: k};
            break;
          case 'Scheduled':
            evictedIfTerminating();
            if (pend) endPend(at(k));
            if (nom) endNom(at(k), nom.node === e.node ? 'landed' : 'moved');
            if (cur) endBound(at(k), 'moved');
            cur = {kind: 'bound', node: e.node || '?', start: at(k)};
            break;
          case 'Preempted':
            if (!cur && e.node) cur = {kind: 'bound', node: e.node, start: {i: -1, t: 0}};
            if (cur) {
              cur.termFrom = at(k);
              cur.preempt = {k: k, e: e};
            }
            preemptions.push({victim: p, k: k, e: e});
            break;
          case 'Evicted':
            if (cur) endBound(at(k), 'evicted');
            if (pend) endPend(at(k));
            if (nom) endNom(at(k), 'deleted');
            break;
          case 'Deleted':
            if (cur) endBound(at(k), 'deleted');
            if (pend) endPend(at(k));
            if (nom) endNom(at(k), 'deleted');
            break;
        }
      });
      if (cur) endBound(end, 'open');
      if (nom) endNom(end, 'open');
      if (pend) endPend(end);
    });

    var nodes = [];
    var nodeInfo = {};
    var seen = Object.create(null);
    (d.nodes || []).forEach(function (nd) {
      nodes.push(nd.node);
      nodeInfo[nd.node] = nd;
      seen[nd.node] = true;
    });
    pods.forEach(function (p) {
      p.segs.forEach(function (s) {
        if (seen[s.node]) return;
        seen[s.node] = true;
        nodes.push(s.node);
      });
    });
    var priorities = [];
    pods.forEach(function (p) {
      if (priorities.indexOf(p.priority) < 0) priorities.push(p.priority);
    });
    priorities.sort(function (a, b) { return b - a; });
    return {events: events, n: n, maxTime: maxTime, pods: pods, byName: byName, nodes: nodes,
            nodeInfo: nodeInfo, priorities: priorities, preemptions: preemptions,
            endReason: d.endReason || ''};
  }

  function colorOf(priority) {
    var idx = model.priorities.indexOf(priority);
    return PALETTE[(idx < 0 ? 0 : idx) % PALETTE.length];
  }

  // ------------------------------------------------------------------------------------------
  // Drawing.

  function textMeasurer(font) {
    var ctx = null;
    try {
      ctx = document.createElement('canvas').getContext('2d');
      ctx.font = font;
    } catch (err) {
      ctx = null;
    }
    return function (text) { return ctx ? ctx.measureText(text).width : text.length * 6.6; };
  }

  function node(tag, attrs, parent) {
    var el = document.createElementNS(SVGNS, tag);
    for (var key in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, key)) el.setAttribute(key, attrs[key]);
    }
    if (parent) parent.appendChild(el);
    return el;
  }

  function text(parent, x, y, content, cls, anchor) {
    var t = node('text', {x: x, y: y, 'class': cls}, parent);
    if (anchor) t.setAttribute('text-anchor', anchor);
    t.textContent = content;
    return t;
  }

  function title(parent, lines) {
    var t = node('title', {}, parent);
    t.textContent = lines.filter(function (l) { return l; }).join('\n');
  }

  // Cuts `label` to fit `width` pixels, with an ellipsis.
  function fit(label, width) {
    if (measure(label) <= width) return label;
    var cut = label;
    while (cut.length > 1 && measure(cut + '…') > width) cut = cut.slice(0, -1);
    return cut.length > 1 ? cut + '…' : '';
  }

  function niceStep(span, target) {
    var raw = span / Math.max(1, target);
    var pow = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
    var steps = [1, 2, 5, 10];
    for (var s = 0; s < steps.length; s++) {
      if (steps[s] * pow >= raw) return steps[s] * pow;
    }
    return 10 * pow;
  }

  function draw() {
    chart.textContent = '';
    var width = Math.max((chart.clientWidth || 1200) - 2, 720);
    var labelW = 150, padR = 24, axisH = 40, rowH = 26, barH = 18, laneGap = 10;
    var plotL = labelW + 34;
    var plotR = width - padR;
    var x, xEndLine, openEnd;
    if (mode === 'time') {
      var domain = model.maxTime > 0 ? model.maxTime * 1.06 : 1;
      x = function (pt) { return plotL + (pt.t / domain) * (plotR - plotL); };
      xEndLine = x({t: model.maxTime});
      openEnd = plotR;
    } else {
      var cols = model.n + 2;
      var colW = Math.max(Math.min(36, MAX_SEQUENCE_WIDTH / cols), (plotR - plotL) / cols);
      plotR = plotL + colW * cols;
      width = plotR + padR;
      x = function (pt) { return plotL + (pt.i + 1) * colW; };
      xEndLine = x({i: model.n});
      openEnd = plotR;
    }
    function x1Of(pt) { return pt.open ? openEnd : x(pt); }

    // Lanes and their tracks (one per pod per lane), packed into rows.
    var lanes = model.nodes.slice(0, MAX_NODE_LANES).map(function (name) {
      return {name: name, tracks: [], queue: false};
    });
    var laneOf = {};
    lanes.forEach(function (l) { laneOf[l.name] = l; });
    var queue = {name: 'pending', tracks: [], queue: true};
    var queuedPods = 0;
    model.pods.forEach(function (p) {
      var perLane = {};
      p.segs.forEach(function (s) {
        (perLane[s.node] = perLane[s.node] || []).push(s);
      });
      Object.keys(perLane).forEach(function (nodeName) {
        if (laneOf[nodeName]) laneOf[nodeName].tracks.push(makeTrack(p, perLane[nodeName], []));
      });
      if (p.pends.length || p.marks.length) {
        queuedPods++;
        if (queuedPods <= MAX_QUEUE_ROWS) queue.tracks.push(makeTrack(p, p.pends, p.marks));
      }
    });
    var cut = [];
    if (model.nodes.length > MAX_NODE_LANES) {
      cut.push('the first ' + MAX_NODE_LANES + ' of ' + model.nodes.length + ' nodes');
    }
    if (queuedPods > MAX_QUEUE_ROWS) {
      cut.push('the first ' + MAX_QUEUE_ROWS + ' of ' + queuedPods + ' pods that waited');
    }
    if (cut.length) {
      var notice = document.createElement('p');
      notice.className = 'note';
      notice.style.margin = '6px 10px';
      notice.textContent = 'The timeline shows ' + cut.join(' and ') +
                           '; the tables below list everything.';
      chart.appendChild(notice);
    }
    if (queue.tracks.length) lanes.push(queue);

    function makeTrack(p, segs, marks) {
      var x0 = Infinity, x1 = -Infinity;
      segs.forEach(function (s) {
        x0 = Math.min(x0, x(s.start));
        x1 = Math.max(x1, x1Of(s.end) + (s.how === 'cleared' ? 64 : 0));
      });
      marks.forEach(function (m) {
        var mx = x({i: m.k, t: num(model.events[m.k].time)});
        x0 = Math.min(x0, mx - 5);
        x1 = Math.max(x1, mx + 5);
      });
      // Room for the name, drawn beside a bar too short to hold it.
      x1 = Math.max(x1, x0 + measure(shortName(p.name)) + 18);
      return {pod: p, segs: segs, marks: marks, x0: x0, x1: x1, row: 0};
    }

    var y = axisH;
    lanes.forEach(function (lane) {
      var rowsEnd = [];
      lane.tracks.forEach(function (t) {
        var r = 0;
        while (r < rowsEnd.length && rowsEnd[r] + 6 > t.x0) r++;
        rowsEnd[r] = t.x1;
        t.row = r;
      });
      lane.rows = Math.max(1, rowsEnd.length);
      lane.y = y;
      lane.h = lane.rows * rowH + laneGap;
      y += lane.h;
    });
    var height = y + 8;

    var svg = node('svg', {width: width, height: height, viewBox: '0 0 ' + width + ' ' + height,
                           role: 'img', 'aria-label': 'Timeline of the simulation'});
    var defs = node('defs', {}, svg);
    var hatch = node('pattern', {id: 'kp-hatch', width: 7, height: 7,
                                 patternUnits: 'userSpaceOnUse',
                                 patternTransform: 'rotate(45)'}, defs);
    node('rect', {width: 7, height: 7, fill: '#000', 'fill-opacity': 0.18}, hatch);
    node('line', {x1: 0, y1: 0, x2: 0, y2: 7, stroke: '#fff', 'stroke-width': 3.5,
                  'stroke-opacity': 0.75}, hatch);
    ['normal', 'pdb'].forEach(function (kind) {
      var marker = node('marker', {id: 'kp-arrow-' + kind, viewBox: '0 0 10 10', refX: 9,
                                   refY: 5, markerWidth: 7, markerHeight: 7,
                                   orient: 'auto-start-reverse'}, defs);
      node('path', {d: 'M0,0 L10,5 L0,10 z', fill: kind === 'pdb' ? '#a51111' : '#e03131'},
           marker);
    });

    // Lane backgrounds and labels.
    lanes.forEach(function (lane, idx) {
      node('rect', {x: 0, y: lane.y, width: width, height: lane.h,
                    'class': 'lane-bg' + (lane.queue ? ' queue' : idx % 2 ? ' alt' : '')}, svg);
      node('line', {x1: 0, x2: width, y1: lane.y, y2: lane.y, 'class': 'grid'}, svg);
      var ly = lane.y + Math.min(lane.h / 2, rowH / 2 + 4);
      text(svg, 10, ly, fit(lane.queue ? 'pending' : lane.name, labelW - 10), 'lane-label');
      var sub = '';
      if (lane.queue) {
        sub = 'scheduling queue';
      } else if (model.nodeInfo[lane.name]) {
        var info = model.nodeInfo[lane.name];
        sub = 'cpu ' + ((info.requested || {}).cpu || '0') + '/' +
              ((info.allocatable || {}).cpu || '0') + ' at end';
      }
      if (sub) text(svg, 10, ly + 14, fit(sub, labelW - 10), 'lane-sub');
      if (!lane.tracks.length) {
        text(svg, plotL + 6, lane.y + rowH / 2 + 5, 'no pods', 'lane-sub');
      }
    });
    node('line', {x1: plotL - 6, x2: plotL - 6, y1: axisH, y2: height, 'class': 'axis-line'},
         svg);

    // Axis.
    node('line', {x1: plotL, x2: plotR, y1: axisH - 1, y2: axisH - 1, 'class': 'axis-line'}, svg);
    if (mode === 'time') {
      var step = niceStep(model.maxTime > 0 ? model.maxTime * 1.06 : 1, Math.floor((plotR - plotL) / 90));
      for (var t = 0; x({t: t}) <= plotR + 0.5; t += step) {
        var tx = x({t: t});
        node('line', {x1: tx, x2: tx, y1: axisH - 5, y2: height, 'class': 'grid'}, svg);
        text(svg, tx, axisH - 10, fmtTime(t), 'axis-label', 'middle');
      }
    } else {
      var every = Math.max(1, Math.ceil(44 / Math.max(1, x({i: 0}) - x({i: -1}))));
      if (every === 1) text(svg, x({i: -1}), axisH - 10, 'start', 'axis-label', 'middle');
      var lastTime = null, lastTimeX = -Infinity;
      model.events.forEach(function (e, k) {
        var ex = x({i: k});
        if (k % every === 0) {
          node('line', {x1: ex, x2: ex, y1: axisH - 4, y2: height, 'class': 'grid'}, svg);
          text(svg, ex, axisH - 22, '#' + (k + 1), 'axis-label', 'middle');
        }
        if (num(e.time) !== lastTime && ex - lastTimeX >= 44) {
          text(svg, ex, axisH - 8, fmtTime(num(e.time)), 'axis-label', 'middle');
          lastTime = num(e.time);
          lastTimeX = ex;
        }
      });
    }
    // Scenario steps: a dashed line across every lane at the step, a flag on the axis; hover for
    // the step and what it did.
    model.events.forEach(function (e, k) {
      if (e.reason !== 'ScenarioStep') return;
      var sx = x({i: k, t: num(e.time)});
      var sg = node('g', {'class': 'step-mark'}, svg);
      var step = e.step || {};
      title(sg, ['Scenario ' + (step.scenario || '') + ' step ' + step.index + ' (' + (step.action || '') +
                 ') at ' + fmtTime(num(e.time)), e.message]);
      node('line', {x1: sx, x2: sx, y1: axisH - 4, y2: height, 'class': 'step-line'}, sg);
      node('path', {d: 'M' + sx + ',' + (axisH - 16) + ' l8,3 l-8,3 z', 'class': 'step-flag'}, sg);
    });
    node('line', {x1: xEndLine, x2: xEndLine, y1: axisH - 4, y2: height, 'class': 'end-line'}, svg);
    text(svg, Math.min(xEndLine + 4, width - 4), axisH - 26,
         'end' + (model.endReason ? ' (' + model.endReason + ')' : ''), 'end-label',
         xEndLine + 90 > width ? 'end' : 'start');

    // Bars and markers; remember where each pod's segments landed, for the arrows.
    var placed = [];
    lanes.forEach(function (lane) {
      lane.tracks.forEach(function (track) {
        var top = lane.y + laneGap / 2 + track.row * rowH + (rowH - barH) / 2;
        if (lane.queue) {
          drawQueueTrack(track, top);
        } else {
          track.segs.forEach(function (s) {
            drawSegment(track.pod, s, top);
            placed.push({pod: track.pod, seg: s, top: top});
          });
        }
      });
    });

    // Preemption arrows: from the preemptor's first segment on the victim's node that starts at
    // or after the Preempted event (its nomination, or its binding) to the victim's marker. For a
    // pod group's preemption, any member of that group (`byGroup`) on that node will do.
    model.preemptions.forEach(function (pre) {
      var victimPlace = null, byPlace = null;
      placed.forEach(function (pl) {
        if (pl.pod === pre.victim && pl.seg.preempt && pl.seg.preempt.k === pre.k) victimPlace = pl;
      });
      if (!victimPlace) return;
      placed.forEach(function (pl) {
        var isBy = pl.pod.name === pre.e.by || (pre.e.byGroup && pl.pod.group === pre.e.byGroup);
        if (!isBy || pl.seg.node !== victimPlace.seg.node || pl.seg.start.i < pre.k) return;
        if (!byPlace || pl.seg.start.i < byPlace.seg.start.i) byPlace = pl;
      });
      if (!byPlace) return;
      var pdb = !!pre.e.pdbViolation;
      // A curve bowing to the left, from the preemptor's bar to the victim's bar, at the
      // Preempted event's position.
      var ax = x(byPlace.seg.start) - 1, ay = byPlace.top + barH / 2;
      var bx = x({i: pre.k, t: num(pre.e.time)}) - 6, by = victimPlace.top + barH / 2;
      var bow = 22 + Math.min(40, Math.abs(by - ay) / 4);
      var path = 'M' + ax + ',' + ay + ' C' + (ax - bow) + ',' + ay + ' ' + (bx - bow) + ',' +
                 by + ' ' + bx + ',' + by;
      var g = node('g', {'class': 'pod', 'data-pod': pre.victim.name}, svg);
      var arrowDecision = linkDecision(g, pre.e);
      title(g, ['Preempted ' + pre.victim.name + ' on ' + victimPlace.seg.node + ' by ' + pre.e.by,
                pdb ? 'violates a PodDisruptionBudget' : '',
                arrowDecision ? 'click: the decision (round ' + pre.e.round + ')' : '']);
      node('path', {d: path, 'class': 'arrow-halo'}, g);
      node('path', {d: path, 'class': 'arrow' + (pdb ? ' pdb' : ''),
                    'marker-end': 'url(#kp-arrow-' + (pdb ? 'pdb' : 'normal') + ')'}, g);
    });

    chart.appendChild(svg);
    bindHighlight(svg);

    function podTitle(p) {
      return [p.name + ' (priority ' + p.priority + ')', p.state ? 'final state: ' + p.state : '',
              p.group ? 'pod group: ' + p.group : ''];
    }

    function wrap(p) {
      var g = node('g', {'class': 'pod', 'data-pod': p.name}, svg);
      if (p.index >= 0) {
        g.addEventListener('click', function () {
          if (!openExplain(p.name, 0, null)) location.hash = 'pod-' + p.index;
        });
      }
      return g;
    }

    function drawSegment(p, s, top) {
      var sx = x(s.start), ex = x1Of(s.end);
      var w = Math.max(4, ex - sx);
      var color = colorOf(p.priority);
      var g = wrap(p);
      var pre = s.preempt ? s.preempt.e : null;
      var lines = podTitle(p);
      if (s.kind === 'nominated') {
        lines.push('nominated to ' + s.node + ' from ' + fmtTime(s.start.t) +
                   (s.end.open ? '' : ' to ' + fmtTime(s.end.t) + ' (' + s.how + ')'));
        if (s.endMessage) lines.push(s.endMessage);
        var nomRect = node('rect', {x: sx, y: top, width: w, height: barH, rx: 3, fill: color,
                                    stroke: color, 'class': 'ghost'}, g);
        var nomEvent = model.events[s.k];
        if (nomEvent && linkDecision(nomRect, nomEvent)) {
          lines.push('click: the preemption decision (round ' + nomEvent.round + ')');
        }
        title(g, lines);
        if (s.how === 'cleared' || s.how === 'moved') {
          var cx = sx + w;
          node('path', {d: 'M' + (cx - 4) + ',' + (top + 5) + ' l8,8 m0,-8 l-8,8',
                        'class': 'mark-cleared'}, g);
          if (s.how === 'cleared') text(g, cx + 8, top + barH - 5, 'cleared', 'lane-sub');
        }
        var nomLabel = shortName(p.name) + ' · nominated';
        drawLabel(g, sx, w, top, nomLabel, shortName(p.name), 'ghost-label');
        return;
      }
      lines.push('on ' + s.node + ' from ' + (s.start.i < 0 ? 'the start' : fmtTime(s.start.t)) +
                 (s.end.open ? ' to the end' : ' to ' + fmtTime(s.end.t) + ' (' + s.how + ')'));
      if (pre) {
        lines.push('preempted at ' + fmtTime(num(pre.time)) + ' by ' + pre.by +
                   (pre.byGroup ? ' (pod group ' + pre.byGroup + ')' : ''));
        if (pre.victimGroup) lines.push('with its pod group ' + pre.victimGroup);
        if (pre.pdbViolation) lines.push('violates a PodDisruptionBudget');
      }
      title(g, lines);
      node('rect', {x: sx, y: top, width: w, height: barH, rx: 3, fill: color}, g);
      if (s.termFrom) {
        var hx = x(s.termFrom);
        node('rect', {x: hx, y: top, width: Math.max(3, sx + w - hx), height: barH,
                      fill: 'url(#kp-hatch)'}, g);
      }
      if (pre && pre.pdbViolation) {
        node('rect', {x: sx - 1.5, y: top - 1.5, width: w + 3, height: barH + 3, rx: 4,
                      'class': 'pdb-outline'}, g);
      }
      if (s.how === 'deleted') {
        node('line', {x1: sx + w, x2: sx + w, y1: top - 2, y2: top + barH + 2,
                      'class': 'mark-deleted'}, g);
      }
      if (s.end.open) {
        node('path', {d: 'M' + (sx + w) + ',' + top + ' l6,' + barH / 2 + ' l-6,' + barH / 2 +
                         ' z', fill: color}, g);
      }
      var name = shortName(p.name);
      if (!pre) {
        drawLabel(g, sx, w, top, name, name, 'bar-label');
        return;
      }
      var note = '✕ preempted by ' +
                 (pre.byGroup ? 'pod group ' + shortName(pre.byGroup) : shortName(pre.by)) +
                 (pre.victimGroup ? ', with its group' : '') + (pre.pdbViolation ? ' (PDB!)' : '');
      var mx = x({i: s.preempt.k, t: num(pre.time)});
      var preMark = node('path', {d: 'M' + (mx - 6) + ',' + (top - 4) + ' l12,0 l-6,9 z',
                                  'class': 'mark-preempted' + (pre.pdbViolation ? ' pdb' : '')}, g);
      if (linkDecision(preMark, pre)) {
        // The title was set above; name the link in it too.
        var t = g.querySelector('title');
        if (t) t.textContent += '\nclick the ▼ marker: the decision (round ' + pre.round + ')';
      }
      // The name before the marker and the note after it; with no room before the marker, both
      // after it.
      if (mx - sx - 12 < measure(name.slice(0, 4) + '…')) {
        drawLabel(g, mx + 2, sx + w - mx - 2, top, name + '  ' + note, name, 'bar-label');
      } else {
        text(g, sx + 6, top + barH - 5, fit(name, mx - sx - 14), 'bar-label');
        var room = sx + w - mx - 14;
        if (room > measure('✕ by…')) text(g, mx + 8, top + barH - 5, fit(note, room), 'bar-label');
      }
    }

    // Writes `label` inside the bar when the bar holds at least `name`, else `name` beside it.
    // Too short and no room to the right: cut inside (or, if nothing fits, write it left).
    function drawLabel(g, sx, w, top, label, name, cls) {
      var inner = w - 10;
      var ty = top + barH - 5;
      if (measure(name) <= inner) {
        text(g, sx + 6, ty, fit(label, inner), cls);
      } else if (sx + w + 8 + measure(name) <= width - 2) {
        text(g, sx + w + 8, ty, name, 'ghost-label');
      } else if (fit(name, inner).length > 3) {
        text(g, sx + 6, ty, fit(name, inner), cls);
      } else {
        text(g, sx - 6, ty, name, 'ghost-label', 'end');
      }
    }

    function drawQueueTrack(track, top) {
      var p = track.pod;
      var g = wrap(p);
      var lines = podTitle(p);
      track.segs.forEach(function (s) {
        lines.push('pending from ' + fmtTime(s.start.t) +
                   (s.end.open ? ' to the end' : ' to ' + fmtTime(s.end.t)));
      });
      var failures = track.marks.filter(function (m) { return m.type === 'failed'; }).length;
      if (failures) lines.push(failures + ' FailedScheduling event(s); hover a ◆ for the message');
      title(g, lines);
      var labelled = false;
      track.segs.forEach(function (s) {
        var sx = x(s.start), w = Math.max(4, x1Of(s.end) - sx);
        node('rect', {x: sx, y: top, width: w, height: barH, rx: 3, 'class': 'pend'}, g);
        if (!labelled) {
          drawLabel(g, sx + 10, w - 10, top, shortName(p.name), shortName(p.name), 'pend-label');
          labelled = true;
        }
      });
      if (!labelled) {
        var first = track.marks.length ? x({i: track.marks[0].k, t: 0}) : track.x0;
        text(g, first + 10, top + barH - 5, shortName(p.name), 'pend-label');
      }
      track.marks.forEach(function (m) {
        var e = model.events[m.k];
        var mx = x({i: m.k, t: num(e.time)}), my = top + barH / 2;
        var mg = node('g', {}, g);
        if (m.type === 'failed') {
          // Aggregated repeats (Events API count, first and last time).
          var repeats = num(e.count) > 1 ? ' (x' + num(e.count) + ', ' + fmtTime(num(e.firstTime)) +
                                           '..' + fmtTime(num(e.lastTime)) + ')' : '';
          var explained = linkAttempt(mg, e);
          title(mg, ['FailedScheduling ' + p.name + ' at ' + fmtTime(num(e.time)) + repeats, e.message,
                     explained ? 'click: the explain of this attempt (round ' + e.round + ')' : '']);
          node('path', {d: 'M' + mx + ',' + (my - 6) + ' l6,6 l-6,6 l-6,-6 z',
                        'class': 'mark-failed'}, mg);
        } else {
          title(mg, ['Created ' + p.name + ' at ' + fmtTime(num(e.time)), e.message]);
          node('circle', {cx: mx, cy: my, r: 4.5, 'class': 'mark-created'}, mg);
        }
      });
    }
  }

  // ------------------------------------------------------------------------------------------
  // Controls, legend, highlighting.

  function drawControls() {
    var box = document.getElementById('timeline-controls');
    if (!box) return;
    box.textContent = '';
    var label = document.createElement('span');
    label.textContent = 'Axis:';
    box.appendChild(label);
    [['time', 'Simulated time'], ['sequence', 'Event order']].forEach(function (opt) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = opt[1];
      b.className = mode === opt[0] ? 'on' : '';
      b.addEventListener('click', function () {
        mode = opt[0];
        drawControls();
        draw();
      });
      box.appendChild(b);
    });
    var hint = document.createElement('span');
    hint.id = 'timeline-hint';
    hint.style.marginLeft = '12px';
    box.appendChild(hint);
    drawHint();
  }

  function drawHint() {
    var hint = document.getElementById('timeline-hint');
    if (!hint) return;
    hint.textContent = inServe() ? 'Hover a pod to highlight it everywhere; click a pod or a marker to explain it.'
                                 : 'Hover a pod to highlight it everywhere; click it to open its explained attempt ' +
                                   '(or its row), a marker to open its attempt.';
  }

  function drawLegend() {
    var box = document.getElementById('timeline-legend');
    if (!box) return;
    function item(html) {
      var span = document.createElement('span');
      span.innerHTML = html;
      box.appendChild(span);
    }
    model.priorities.forEach(function (prio) {
      item('<span class="sw" style="background:' + colorOf(prio) + '"></span>priority ' + prio);
    });
    var c = PALETTE[0];
    item('<svg width="24" height="12"><rect width="24" height="12" rx="2" fill="' + c +
         '"/><rect width="24" height="12" fill="url(#kp-hatch)"/></svg>terminating (grace period)');
    item('<svg width="24" height="12"><rect x="1" y="1" width="22" height="10" rx="2" fill="' +
         c + '" fill-opacity=".14" stroke="' + c + '" stroke-dasharray="4 2"/></svg>nominated');
    item('<svg width="24" height="12"><rect x="1" y="1" width="22" height="10" rx="2" ' +
         'fill="#fff" stroke="#adb5bd" stroke-dasharray="3 2"/></svg>pending');
    item('<svg width="12" height="12"><path d="M0,1 l12,0 l-6,9 z" fill="#e03131"/></svg>' +
         'Preempted, <svg width="26" height="12"><path d="M2,6 L22,6" stroke="#e03131" ' +
         'stroke-width="1.6"/><path d="M18,2 L25,6 L18,10 z" fill="#e03131"/></svg>' +
         'from the preemptor');
    item('<svg width="24" height="12"><rect x="1.5" y="1.5" width="21" height="9" rx="2" ' +
         'fill="none" stroke="#a51111" stroke-width="2.5"/></svg>violates a PDB');
    item('<svg width="12" height="12"><path d="M6,0 l6,6 l-6,6 l-6,-6 z" fill="#e67700"/>' +
         '</svg>FailedScheduling');
    item('<svg width="12" height="12"><circle cx="6" cy="6" r="4.5" fill="#fff" ' +
         'stroke="#5f3dc4" stroke-width="1.5"/></svg>Created');
    if (model.events.some(function (e) { return e.reason === 'ScenarioStep'; })) {
      item('<svg width="14" height="12"><path d="M3,0 L3,12" stroke="#1971c2" stroke-dasharray="3 2"/>' +
           '<path d="M3,1 l8,3 l-8,3 z" fill="#1971c2"/></svg>Scenario step');
    }
  }

  // The Decisions panel's block for the event's round (render_html.cc gives the first decision of
  // each round the id "decision-<round>"), or null when the page lists none for it.
  function decisionFor(e) {
    if (!e || typeof e.round !== 'number' || e.round <= 0) return null;
    return document.getElementById('decision-' + e.round);
  }

  // The Attempts panel's block for the event's round ("attempt-<round>"), or null.
  function attemptFor(e) {
    if (!e || typeof e.round !== 'number' || e.round <= 0) return null;
    return document.getElementById('attempt-' + e.round);
  }

  // Makes a click on `el` open `target` (a folding block), and in kpsim serve ask for the explain
  // of event `e`'s attempt; false when the page itself has nothing to open.
  function linkTo(el, target, e) {
    if (!target && !e) return false;
    if (target) markLink(el);
    else el.setAttribute('data-explain', '');  // a link once kpsim serve says it frames the page
    el.addEventListener('click', function (ev) {
      ev.stopPropagation();
      if (e && inServe()) openExplain(e.reason === 'Preempted' && e.by ? e.by : e.pod, e.round, null);
      if (target) showDecision(target);
    });
    return !!target;
  }

  function markLink(el) {
    el.setAttribute('class', ((el.getAttribute('class') || '') + ' decision-link').trim());
  }

  // kpsim serve frames the report and says so (a message from the framing page with the run's
  // id); only then do clicks ask it for an explain. Framed anywhere else, the page keeps its own
  // links and sends nothing.
  var servedRun = null;
  window.addEventListener('message', function (ev) {
    if (ev.source !== window.parent || window.parent === window) return;
    if (!ev.data || ev.data.kpsim !== 'serve' || typeof ev.data.run !== 'number') return;
    servedRun = ev.data.run;
    document.documentElement.setAttribute('data-served-run', String(servedRun));
    var waiting = document.querySelectorAll('[data-explain]');
    for (var i = 0; i < waiting.length; i++) {
      waiting[i].removeAttribute('data-explain');
      markLink(waiting[i]);
    }
    drawHint();
  });

  function inServe() { return servedRun !== null; }

  // Makes `el` (a FailedScheduling marker) open the explain of its event's attempt.
  function linkAttempt(el, e) {
    return linkTo(el, attemptFor(e), e);
  }

  // Makes `el` (a Preempted or Nominated marker) open the explain of its event's attempt when the
  // page embeds it (which links the decision record), else the decision record of its round.
  function linkDecision(el, e) {
    return linkTo(el, attemptFor(e) || decisionFor(e), e.reason === 'Nominated' || e.reason === 'Preempted' ? e : null);
  }

  function showDecision(el) {
    if (el.tagName && el.tagName.toLowerCase() === 'details') el.open = true;
    if (location.hash !== '#' + el.id) {
      location.hash = el.id;
    } else if (el.scrollIntoView) {
      el.scrollIntoView();
    }
  }

  // A #decision-N address (a link in the tables, or the page opened with it) unfolds that block;
  // a #pod-N address past the first rows of the pods table turns to its page.
  function openFromHash() {
    var id = location.hash.slice(1);
    if (id.indexOf('pod-') === 0 && !document.getElementById(id)) {
      var wraps = Array.prototype.filter.call(document.querySelectorAll('.table-wrap.paged'),
                                              function (w) { return !!w.kpsimReveal; });
      (function next(i) {
        if (i >= wraps.length) return;
        wraps[i].kpsimReveal(id).then(function (found) {
          if (!found) return next(i + 1);
          var row = document.getElementById(id);
          if (row && row.scrollIntoView) row.scrollIntoView();
        });
      })(0);
      return;
    }
    if (id.indexOf('decision-') !== 0 && id.indexOf('attempt-') !== 0) return;
    var el = document.getElementById(id);
    if (el && el.tagName.toLowerCase() === 'details') el.open = true;
  }

  // A pod's explain: in kpsim serve (the report in its frame) the server explains the attempt
  // (or the pod's first one) with every node and candidate; in a file, the page's own block.
  // Returns false when neither can show it.
  function openExplain(pod, round, block) {
    if (inServe()) {
      window.parent.postMessage({kpsim: 'explain', run: servedRun, pod: pod, attempt: round > 0 ? round : 0}, '*');
      return true;
    }
    if (!block) block = document.querySelector('details.attempt[data-subject="' + cssQuote(pod) + '"]');
    if (!block) return false;
    showDecision(block);
    return true;
  }

  function cssQuote(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, '\\$&');
  }

  // ------------------------------------------------------------------------------------------
  // Long tables (render_html.cc, Table::kInlineRows): the page holds their first rows as HTML and
  // every row as row HTML in a script.table-rows, read on first use. Shown a page at a time,
  // searchable (a row's text contains the words) and sortable (click a column; numbers as numbers).

  function pagedTables() {
    var wraps = document.querySelectorAll('.table-wrap.paged');
    for (var i = 0; i < wraps.length; i++) pager(wraps[i]);
  }

  function pager(wrap) {
    var PAGE = 200;
    var holder = wrap.querySelector('script.table-rows');
    var table = wrap.querySelector('table');
    if (!holder || !table || !table.tBodies.length) return;
    var tbody = table.tBodies[0];
    var total = Number(wrap.getAttribute('data-total')) || 0;
    var rows = null, ready = null, view = null, page = 0, words = [], sortCol = -1, sortDir = 1;

    var bar = document.createElement('div');
    bar.className = 'pager';
    var search = document.createElement('input');
    search.type = 'search';
    search.placeholder = 'search ' + total + ' rows';
    search.setAttribute('aria-label', 'search the rows of this table');
    var prev = element('button', '', '\u2039 previous');
    var next = element('button', '', 'next \u203a');
    var info = element('span', 'pager-info', '');
    bar.appendChild(search);
    bar.appendChild(prev);
    bar.appendChild(next);
    bar.appendChild(info);
    wrap.insertBefore(bar, table);
    info.textContent = 'rows 1\u2013' + Math.min(PAGE, total) + ' of ' + total;
    prev.disabled = true;

    function plain(html) {
      return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    }
    // Resolves once `rows` holds every row (read on first use).
    function load() {
      if (!ready) {
        ready = kpsimReadEmbedded(holder).then(function (text) {
          rows = JSON.parse(text).map(function (html) { return {html: html, text: null, cells: null}; });
        });
      }
      return ready;
    }
    function textOf(r) {
      if (r.text === null) r.text = plain(r.html).toLowerCase();
      return r.text;
    }
    function cellOf(r, col) {
      if (!r.cells) r.cells = r.html.split('</td>').slice(0, -1).map(plain);
      return r.cells[col] || '';
    }
    function compare(a, b) {
      var x = cellOf(rows[a], sortCol), y = cellOf(rows[b], sortCol);
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = !isNaN(nx) && !isNaN(ny) && nx !== ny ? nx - ny : (x < y ? -1 : x > y ? 1 : 0);
      return c !== 0 ? c * sortDir : a - b;
    }
    function refresh() {
      return load().then(show);
    }
    function show() {
      view = [];
      for (var i = 0; i < rows.length; i++) {
        var t = words.length ? textOf(rows[i]) : '';
        var hit = true;
        for (var w = 0; w < words.length && hit; w++) hit = t.indexOf(words[w]) >= 0;
        if (hit) view.push(i);
      }
      if (sortCol >= 0) view.sort(compare);
      var pages = Math.max(1, Math.ceil(view.length / PAGE));
      page = Math.min(page, pages - 1);
      var from = page * PAGE, to = Math.min(view.length, from + PAGE);
      var html = '';
      for (var k = from; k < to; k++) html += rows[view[k]].html;
      tbody.innerHTML = html;
      bindHighlight(tbody);
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      info.textContent = view.length ? 'rows ' + (from + 1) + '\u2013' + to + ' of ' + view.length +
          (view.length !== rows.length ? ' (of ' + rows.length + ')' : '') : 'no row matches';
    }
    var timer = null;
    search.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        words = search.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
        page = 0;
        refresh();
      }, 150);
    });
    prev.addEventListener('click', function () { page = Math.max(0, page - 1); refresh(); });
    next.addEventListener('click', function () { page += 1; refresh(); });
    // Shows the page holding the row with this id (a #pod-N address past the first rows), with
    // the search cleared; false when no row of this table has it.
    wrap.kpsimReveal = function (id) {
      return load().then(function () {
        var needle = 'id="' + id + '"';
        for (var i = 0; i < rows.length; i++) {
          if (rows[i].html.indexOf(needle) < 0) continue;
          words = [];
          search.value = '';
          show();
          page = Math.floor(Math.max(0, view.indexOf(i)) / PAGE);
          show();
          return true;
        }
        return false;
      });
    };
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    for (var h = 0; h < heads.length; h++) {
      (function (col, th) {
        th.classList.add('sortable');
        th.title = 'sort by this column';
        th.addEventListener('click', function () {
          sortDir = sortCol === col ? -sortDir : 1;
          sortCol = col;
          page = 0;
          refresh();
        });
      })(h, heads[h]);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Capacity steppers (render_capacity.cc): the page holds every frame of "remove all, then
  // reprieve" beside the naive order; the script shows one at a time with Previous and Next.

  // A new element of the page's controls (a button is of type button: it submits nothing).
  function element(tag, cls, content) {
    var el = document.createElement(tag);
    if (tag === 'button') el.type = 'button';
    if (cls) el.className = cls;
    if (content) el.textContent = content;
    return el;
  }

  function steppers() {
    var all = document.querySelectorAll('.stepper');
    for (var i = 0; i < all.length; i++) stepper(all[i]);
  }

  function stepper(box) {
    var frames = box.querySelectorAll('.cap-step');
    if (frames.length < 2) return;
    var at = 0;
    var nav = element('div', 'stepper-nav', '');
    var prev = element('button', 'step-prev', '\u25c0 Previous');
    var next = element('button', 'step-next', 'Next \u25b6');
    var label = element('span', 'stepper-label', '');
    nav.appendChild(prev);
    nav.appendChild(label);
    nav.appendChild(next);
    box.insertBefore(nav, box.firstChild);
    box.classList.add('js');
    function show() {
      for (var k = 0; k < frames.length; k++) frames[k].classList.toggle('current', k === at);
      label.textContent = 'step ' + at + ' of ' + (frames.length - 1);
      prev.disabled = at === 0;
      next.disabled = at === frames.length - 1;
    }
    prev.addEventListener('click', function () { if (at > 0) { at -= 1; show(); } });
    next.addEventListener('click', function () { if (at < frames.length - 1) { at += 1; show(); } });
    show();
  }

  function podSelector(name) {
    return '[data-pod="' + cssQuote(name) + '"]';
  }

  function setHighlight(name, on) {
    var els = document.querySelectorAll(podSelector(name));
    for (var i = 0; i < els.length; i++) {
      var inSvg = els[i].namespaceURI === SVGNS;
      els[i].classList.toggle(inSvg ? 'sel' : 'hl', on);
    }
  }

  function bindHighlight(root) {
    var els = root.querySelectorAll('[data-pod]');
    for (var i = 0; i < els.length; i++) {
      (function (el) {
        var name = el.getAttribute('data-pod');
        el.addEventListener('mouseenter', function () { setHighlight(name, true); });
        el.addEventListener('mouseleave', function () { setHighlight(name, false); });
      })(els[i]);
    }
  }

  function crossHighlight() { bindHighlight(document); }
})();
