// End-to-end tests of `kpsim serve` in a real headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core; nothing downloads a browser). Run by tests/e2e/run.sh:
//   KPSIM=build/release/kpsim node --test tests/e2e/serve.test.mjs
// Screenshots of the main views are written to tests/e2e/artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const artifacts = join(here, 'artifacts');
const kpsim = process.env.KPSIM;
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
assert.ok(kpsim, 'KPSIM must name the kpsim binary');

let server;
let base;
let browser;
let page;
const consoleErrors = [];

// Starts `kpsim serve` on a free loopback port; resolves with its address.
function startServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(kpsim, ['serve', '--addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = err.match(/listening on (http:\/\/[^\s]+)/);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`kpsim serve exited with ${code}: ${err}`)));
  });
}

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startServer([]);
  server = started.child;
  base = started.url;
  browser = await chromium.launch({
    executablePath: browserPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('pageerror', (err) => consoleErrors.push(String(err)));
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

// Polls `check(status text)` until it holds. Polled from here rather than with
// page.waitForFunction, which evaluates in the page and so would need the page's Content Security
// Policy to allow eval (the page's own policy is part of what is tested).
async function waitForStatus(check, what) {
  const deadline = Date.now() + 20000;
  for (;;) {
    const text = await status();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; status: ${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Waits for the run started by the last action to finish ("ran in N ms").
async function waitForRun(previousStatus) {
  return waitForStatus((s) => /^ran in/.test(s) && s !== previousStatus, 'a new run');
}

// The status text and the count of runs answered: two runs that tell the same still differ.
async function status() {
  return `${await page.textContent('#status')} #${await page.getAttribute('#status', 'data-runs')}`;
}

// The current run's report once it knows that kpsim serve frames it: the serve page tells it
// the run's id when its frame loads, after the report has drawn, and only then does a click ask
// the server for an explain (a click before it opens the report's own block, as a report framed
// anywhere else does). The report echoes the id (html data-served-run), so an older report still
// in the frame does not pass for the new one.
async function servedReport() {
  const run = await page.getAttribute('#frame-cur', 'data-run');
  const frame = page.frameLocator('#frame-cur');
  await frame.locator(`html[data-served-run="${run}"]`).waitFor({ state: 'attached' });
  return frame;
}

async function chooseExample(name) {
  const before = await status();
  const value = await page.$eval('#examples', (select, wanted) => {
    const option = Array.from(select.options).find((o) => o.textContent === wanted);
    return option ? option.value : null;
  }, name);
  assert.ok(value !== null, `example ${name} is offered`);
  await page.selectOption('#examples', value);
  await waitForRun(before);
}

test('the page opens with the cascade example run, and the report shows its preemptions', async () => {
  await page.goto(base);
  await waitForRun('');
  const frame = page.frameLocator('#frame-cur');
  await frame.locator('h1').first().waitFor();
  const text = await frame.locator('body').innerText();
  assert.match(text, /Preempted|preempt/i);
  assert.match(await page.inputValue('#editor'), /kind: Pod/);
  await page.screenshot({ path: join(artifacts, 'serve-cascade.png') });
});

test('the chapter\'s cascade: protecting log with a PDB swaps the victim to batch, and log still goes', async () => {
  await chooseExample('book/cascade-no-pdb.yaml');
  assert.equal(await page.inputValue('#opt-profile'), 'book');
  const before = await status();
  const pdb = page.locator('input[data-pdb-app="log"]');
  assert.equal(await pdb.isChecked(), false);
  await pdb.check();
  await waitForRun(before);
  // The editor now holds the budget the toggle wrote.
  assert.match(await page.inputValue('#editor'), /kind: PodDisruptionBudget[\s\S]*app: log/);
  await page.locator('#diff-victims').waitFor();
  const victims = await page.textContent('#diff-victims');
  assert.match(victims, /only now: default\/batch/, victims);
  // log is a victim in both runs: the cascade pushes it out anyway.
  assert.doesNotMatch(victims, /only before: default\/log/, victims);
  const figures = await page.textContent('#diff-figures');
  assert.match(figures, /victims\s*1\s*2/, figures);
  await page.screenshot({ path: join(artifacts, 'serve-pdb-toggle.png') });
  // Toggling it off restores the first run's victim.
  const again = await status();
  await pdb.uncheck();
  await waitForRun(again);
  assert.match(await page.textContent('#diff-victims'), /only before: default\/batch/);
});

test('editing the YAML re-runs: a Never preemption policy stops the preemption', async () => {
  await chooseExample('cascade.yaml');
  assert.equal(await page.inputValue('#opt-profile'), 'default');
  const before = await status();
  await page.selectOption('select[data-class-policy="high"]', 'Never');
  await waitForRun(before);
  assert.match(await page.inputValue('#editor'), /preemptionPolicy: Never/);
  let figures = await page.textContent('#diff-figures');
  assert.match(figures, /victims\s*2\s*0/, figures);
  assert.match(figures, /pending at end\s*0\s*1/, figures);
  // A hand edit typed into the editor: the policy back.
  const typed = await status();
  const text = await page.inputValue('#editor');
  await page.fill('#editor', text.replace('preemptionPolicy: Never', 'preemptionPolicy: PreemptLowerPriority'));
  await waitForRun(typed);
  figures = await page.textContent('#diff-figures');
  assert.match(figures, /victims\s*0\s*2/, figures);
  // A pod's priority, changed by its class: api (high) down to low preempts no one.
  const lowered = await status();
  await page.selectOption('select[data-pod-class="api"]', 'low');
  await waitForRun(lowered);
  assert.match(await page.inputValue('#editor'), /priorityClassName: low[\s\S]*name: api|name: api[\s\S]*priorityClassName: low/);
  figures = await page.textContent('#diff-figures');
  assert.match(figures, /victims\s*2\s*0/, figures);
});

test('preempt or scale up: the example turns scale-up on, the report compares both worlds, and the toggle turns it off', async () => {
  await chooseExample('scale-up.yaml');
  assert.equal(await page.isChecked('#opt-scaleup'), true);
  const frame = page.frameLocator('#frame-cur');
  await frame.locator('#scaleup').waitFor();
  const panel = await frame.locator('#scaleup').innerText();
  assert.match(panel, /3\s*nodes added instead/i, panel);
  assert.match(panel, /Pods evicted\s*4\s*0/, panel);
  assert.match(panel, /3 × pool-small/, panel);
  await page.screenshot({ path: join(artifacts, 'serve-scale-up.png') });
  // A longer provisioning time moves the placements.
  let before = await status();
  await page.fill('#opt-delay', '5m');
  await page.dispatchEvent('#opt-delay', 'change');
  await waitForRun(before);
  assert.match(await frame.locator('#scaleup').innerText(), /Last waiting pod placed at\s*30s\s*300s/);
  before = await status();
  await page.uncheck('#opt-scaleup');
  await waitForRun(before);
  assert.equal(await frame.locator('#scaleup').count(), 0);
});

test('a marker in the timeline opens the explain of its attempt', async () => {
  await chooseExample('cascade.yaml');
  const frame = await servedReport();
  const marker = frame.locator('svg .decision-link').first();
  await marker.waitFor();
  await marker.click();
  const opened = frame.locator('details[open][id^="attempt-"], details[open][id^="decision-"]');
  await opened.first().waitFor({ timeout: 5000 });
  assert.ok(await opened.count() >= 1);
  // The server explains the same attempt over the same input: every node's plugins, the stepper.
  await page.locator('#explain-panel:not(.hidden)').waitFor();
  const explain = page.frameLocator('#frame-explain');
  await explain.locator('#filter-plugins').waitFor();
  assert.match(await page.textContent('#explain-title'), /explain default\/api, round 1$/);
  assert.match(await explain.locator('#filter-plugins').innerText(), /NodeResourcesFit[\s\S]*Insufficient cpu/);
  assert.match(await explain.locator('#filter-plugins').innerText(), /not run/);
  await explain.locator('.stepper .step-next').waitFor();
  await page.screenshot({ path: join(artifacts, 'serve-explain.png') });
  await page.click('#explain-close');
  assert.ok(await page.locator('#explain-panel.hidden').count() === 1);
});

test('the chapter\'s minimise scene: a pod click opens its explain, whose stepper reprieves two of three', async () => {
  await chooseExample('book/minimize.yaml');
  const frame = await servedReport();
  await frame.locator('svg g.pod[data-pod="default/api"]').first().click();
  await page.locator('#explain-title', { hasText: /^explain default\/api$/ }).waitFor();
  const explain = page.frameLocator('#frame-explain');
  const stepper = explain.locator('.candidate.chosen .stepper');
  await stepper.locator('.step-next').waitFor();
  assert.equal(await stepper.locator('.stepper-label').textContent(), 'step 0 of 3');
  // Step 0: everything lower removed, api in; the naive side has removed nothing yet.
  let current = stepper.locator('.cap-step.current');
  assert.match(await current.locator('.reprieve').innerText(), /step 0, every lower-priority pod removed/);
  assert.match(await current.locator('.naive').innerText(), /nothing removed yet/);
  // Step 1 puts big back: it does not fit, big is the victim; the naive order removed small-b.
  await stepper.locator('.step-next').click();
  current = stepper.locator('.cap-step.current');
  assert.match(await current.locator('.reprieve').innerText(), /put back big[\s\S]*a victim/);
  assert.match(await current.locator('.naive').innerText(), /removed small-b: it still does not fit/);
  await stepper.locator('.step-next').click();
  await stepper.locator('.step-next').click();
  assert.equal(await stepper.locator('.stepper-label').textContent(), 'step 3 of 3');
  assert.ok(await stepper.locator('.step-next').isDisabled());
  current = stepper.locator('.cap-step.current');
  // The reprieve spared both small pods; the naive order stopped all three.
  assert.match(await current.locator('.reprieve').innerText(), /stopped so far: big$/m);
  assert.match(await current.locator('.naive').innerText(), /now it fits[\s\S]*stopped so far: small-b, small-a, big/);
  assert.equal(await current.locator('.reprieve .seg.just-back').count(), 1);
  assert.match(await explain.locator('.candidate.chosen .cap-summary').innerText(), /stops 1 pod and spares 2; .* would stop 3 pods/);
  // The strips before and after: big outlined as the victim, api placed after.
  const pair = explain.locator('.candidate.chosen .capacity > .cap-pair');
  assert.equal(await pair.locator('.cap-frame').first().locator('.seg.victim[data-pod="default/big"]').count(), 1);
  assert.equal(await pair.locator('.cap-frame').nth(1).locator('.seg.incoming[data-pod="default/api"]').count(), 1);
  await page.screenshot({ path: join(artifacts, 'serve-stepper.png') });
});

test('-o html files: the stepper, the score table and a #pod-N address past the first rows work without the server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kpsim-e2e-'));
  const root = join(here, '..', '..');
  const explainHtml = join(dir, 'explain.html');
  const r = spawnSync(kpsim, ['explain', '--pod', 'api', join(root, 'examples/book/minimize.yaml'), '-o', 'html'],
                      { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(explainHtml, r.stdout);
  const file = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  file.on('pageerror', (err) => consoleErrors.push(String(err)));
  await file.goto('file://' + explainHtml);
  const stepper = file.locator('.stepper');
  await stepper.locator('.step-next').click();
  assert.equal(await stepper.locator('.stepper-label').textContent(), 'step 1 of 3');
  // A report file: a click on a pod opens its explained attempt in the page (no server to ask).
  const cascade = spawnSync(kpsim, ['simulate', join(root, 'examples/cascade.yaml'), '-o', 'html'], { encoding: 'utf8' });
  assert.equal(cascade.status, 0, cascade.stderr);
  writeFileSync(join(dir, 'cascade.html'), cascade.stdout);
  await file.goto('file://' + join(dir, 'cascade.html'));
  await file.locator('svg g.pod[data-pod="default/api"]').first().click();
  await file.locator('details[open][data-subject="default/api"]').waitFor();
  assert.match(await file.locator('details[open][data-subject="default/api"] .cap-summary').innerText(), /stops 1 pod/);
  // Two feasible nodes: the score table, per plugin, with the chosen node's total the highest.
  let yaml = '';
  for (const n of ['n1', 'n2']) {
    yaml += `---\napiVersion: v1\nkind: Node\nmetadata: {name: ${n}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n`;
  }
  yaml += '---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy}\nspec:\n  nodeName: n1\n  containers: [{name: c, resources: {requests: {cpu: "2"}}}]\n';
  yaml += '---\napiVersion: v1\nkind: Pod\nmetadata: {name: new}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "1"}}}]\n';
  for (let i = 0; i < 230; i++) {
    yaml += `---\napiVersion: v1\nkind: Pod\nmetadata: {name: q-${String(i).padStart(3, '0')}}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "1m"}}}]\n`;
  }
  const input = join(dir, 'two.yaml');
  writeFileSync(input, yaml);
  const scored = spawnSync(kpsim, ['explain', '--pod', 'new', input, '-o', 'html'], { encoding: 'utf8' });
  assert.equal(scored.status, 0, scored.stderr);
  writeFileSync(join(dir, 'scored.html'), scored.stdout);
  await file.goto('file://' + join(dir, 'scored.html'));
  const rows = file.locator('#scores tbody tr');
  assert.equal(await rows.count(), 2);
  assert.match(await file.locator('#scores tr.chosen-row').innerText(), /^n2/);
  // The pods table of the run holds 232 rows: #pod-N of a row past the first 200 turns its page.
  const sim = spawnSync(kpsim, ['simulate', input, '-o', 'html'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(sim.status, 0, sim.stderr);
  writeFileSync(join(dir, 'run.html'), sim.stdout);
  const id = sim.stdout.match(/id=\\?"(pod-\d+)\\?"(?:(?!id=\\?"pod-).)*?q-220/);
  assert.ok(id, 'the rows script holds q-220');
  await file.goto('file://' + join(dir, 'run.html') + '#' + id[1]);
  await file.locator('#' + id[1]).waitFor();
  assert.match(await file.locator('#' + id[1]).innerText(), /q-220/);
  await file.close();
});

test('-o html past 1 MiB: the deflated data and rows still draw the timeline, page, search and reveal', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kpsim-e2e-'));
  let yaml = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\nstatus:\n  allocatable: {cpu: "5000", memory: 300Gi, pods: "5000"}\n';
  for (let i = 0; i < 4000; i++) {
    yaml += `---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p-${String(i).padStart(4, '0')}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "1"}}}]\n`;
  }
  writeFileSync(join(dir, 'big.yaml'), yaml);
  const sim = spawnSync(kpsim, ['simulate', join(dir, 'big.yaml'), '-o', 'html'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(sim.status, 0, sim.stderr);
  // The run's JSON (past 1 MiB) and the long tables' rows are embedded deflated.
  assert.match(sim.stdout, /id="kpsim-data" data-encoding="deflate-base64"/);
  assert.match(sim.stdout, /class="table-rows" data-encoding="deflate-base64"/);
  writeFileSync(join(dir, 'big.html'), sim.stdout);
  const file = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const errors = [];
  file.on('pageerror', (err) => errors.push(String(err)));
  file.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  await file.goto('file://' + join(dir, 'big.html'));
  await file.locator('#timeline-chart svg g.pod').first().waitFor();
  const pods = file.locator('#pods .table-wrap.paged');
  await pods.locator('.pager button', { hasText: 'next' }).click();
  await file.locator('#pods .pager-info', { hasText: 'rows 201–400 of 4000' }).waitFor();
  await pods.locator('.pager input').fill('p-2345');
  await file.locator('#pods .pager-info', { hasText: 'rows 1–1 of 1 (of 4000)' }).waitFor();
  assert.match(await pods.locator('tbody').textContent(), /p-2345/);
  // #pod-N of a row on a later page (pods are listed in input order) turns the pager there.
  await file.goto('file://' + join(dir, 'big.html') + '#pod-2500');
  await file.locator('#pod-2500').waitFor();
  assert.match(await file.locator('#pod-2500').innerText(), /p-2500/);
  assert.deepEqual(errors, []);
  await file.close();
});

test('a bad input says so without breaking the page', async () => {
  const before = await status();
  await page.fill('#editor', 'kind: Pod\nmetadata: [not, a, map\n');
  await waitForStatus((s) => s !== before && /^ran in/.test(s), 'the run of the bad input');
  const text = await page.frameLocator('#frame-cur').locator('body').innerText();
  assert.match(text, /Rejected|error/i);
});

test('a long table is paged, searchable and sortable', async () => {
  // 260 pods on one node: the pods table (more than 200 rows) comes paged.
  let yaml = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\nstatus:\n  allocatable: {cpu: "300", memory: 300Gi, pods: "300"}\n';
  for (let i = 0; i < 260; i++) {
    yaml += `---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p-${String(i).padStart(3, '0')}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "1"}}}]\n`;
  }
  const before = await status();
  await page.fill('#editor', yaml);
  await waitForRun(before);
  const frame = page.frameLocator('#frame-cur');
  const pods = frame.locator('#pods .table-wrap.paged');
  await pods.waitFor();
  assert.match(await pods.locator('.pager-info').textContent(), /rows 1–200 of 260/);
  assert.equal(await pods.locator('tbody tr').count(), 200);
  await pods.locator('.pager button', { hasText: 'next' }).click();
  assert.match(await pods.locator('.pager-info').textContent(), /rows 201–260 of 260/);
  assert.equal(await pods.locator('tbody tr').count(), 60);
  await pods.locator('.pager input').fill('p-123');
  await frame.locator('#pods .pager-info', { hasText: 'rows 1–1 of 1' }).first().waitFor();
  assert.match(await pods.locator('.pager-info').textContent(), /rows 1–1 of 1 \(of 260\)/);
  assert.match(await pods.locator('tbody').textContent(), /p-123/);
  // Sorting by the first column, twice: descending.
  await pods.locator('.pager input').fill('');
  await frame.locator('#pods .pager-info', { hasText: 'rows 1–200 of 260' }).first().waitFor();
  const head = pods.locator('thead th').first();
  await head.click();
  await head.click();
  assert.match(await pods.locator('tbody tr').first().textContent(), /p-259/);
  await page.screenshot({ path: join(artifacts, 'serve-paged-table.png') });
});

test('the console has no errors', () => {
  assert.deepEqual(consoleErrors, []);
});
