/** The Handlebars template of the HTML report (contracts/report/html-report.ts): one file, no network. */
export const HTML_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{{title}}</title>
<style>
  body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1d2330; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
  .verdict { padding: 8px 12px; border-radius: 6px; display: inline-block; font-weight: 600; }
  .verdict.pass { background: #dff3e3; color: #14592a; } .verdict.fail { background: #fbe0e0; color: #8a1c1c; }
  table { border-collapse: collapse; } th, td { border: 1px solid #d8dce6; padding: 3px 8px; text-align: left; }
  th { background: #f2f4f8; font-weight: 600; }
  td.passed { background: #e3f5e7; } td.passed.warned { background: #fff1c2; } .verdict.warn { background: #fff1c2; color: #6b4e00; margin-left: 8px; }
  #warnings td.rule { white-space: nowrap; } #warnings td.text { font-size: 13px; word-break: break-word; }
  #warnings pre { background: #f7f7f9; padding: 4px 6px; white-space: pre-wrap; word-break: break-all; margin: 4px 0; font-size: 12px; }
  #context td { word-break: break-all; }
  #causes pre { background: #f7f7f9; padding: 4px 6px; white-space: pre-wrap; word-break: break-all; margin: 4px 0; font-size: 12px; }
  .heat td.cannot, .swatch.cannot { background: repeating-linear-gradient(135deg,#dde4f3,#dde4f3 3px,#b9c6e4 3px,#b9c6e4 6px); } td.failed { background: #f9d6d6; font-weight: 600; } td.skipped { background: #f1f1f1; color: #666; }
  .heat td { width: 22px; height: 18px; padding: 0; } .heat td.none { background: repeating-linear-gradient(45deg,#fff,#fff 3px,#eee 3px,#eee 6px); }
  .heat th.col { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: 500; white-space: nowrap; }
  .failure { border: 1px solid #f0c4c4; border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
  .failure pre { background: #f7f7f9; padding: 6px 8px; white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
  .curl { display: flex; gap: 8px; align-items: flex-start; } .curl pre { flex: 1; }
  button { font: inherit; cursor: pointer; }
  .timeline { position: relative; height: 22px; background: #f2f4f8; margin: 4px 0; border-radius: 3px; }
  .timeline .bar { position: absolute; top: 3px; height: 16px; border-radius: 3px; background: #5b7bd5; }
  .timeline .bar.refused { background: #d55b5b; }
  .muted { color: #666; }
  .swatch { display: inline-block; width: 14px; height: 12px; vertical-align: middle; border: 1px solid #ccc; }
  .swatch.none { background: repeating-linear-gradient(45deg,#fff,#fff 3px,#eee 3px,#eee 6px); }
</style>
</head>
<body>
<h1>{{title}}</h1>
<p class="muted">Written {{generatedAt}}</p>
<p class="verdict {{#if passed}}pass{{else}}fail{{/if}}" id="verdict">{{verdict}}</p>{{#if warnings.length}}<a class="verdict warn" id="warnings-banner" href="#warnings">{{warningCount}} warnings: see below</a>{{/if}}
{{#each notes}}<p>{{this}}</p>{{/each}}
{{#if context}}
<h2>The run</h2>
<table id="context"><tbody>
{{#each context}}<tr><th>{{name}}</th><td>{{value}}</td></tr>
{{/each}}</tbody></table>
{{/if}}
{{#if causes.length}}
<h2>Findings by cause ({{causes.length}})</h2>
<p>Every failed check under a cause: what broke and what went wrong (two defects of one rule are two causes), every check that met it, and the cause's own first reproduction with the status it got. The failures below hold every finding in full.</p>
<table id="causes"><thead><tr><th>target</th><th>what broke</th><th>met by</th><th>first finding, reproduced</th></tr></thead><tbody>
{{#each causes}}<tr><td>{{target}}</td><td><code>{{id}}</code> ({{kind}}): {{what}}</td><td>{{checks.length}}: {{#each checks}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}</td><td>{{#if anchor}}<a href="#{{anchor}}">{{first}}</a>{{else}}{{first}}{{/if}}{{#if curl}}<div class="curl"><pre>{{curl}}</pre><button type="button" data-copy="{{curl}}">Copy curl</button></div>{{#if status}}<span class="muted">answered {{status}}</span>{{/if}}{{/if}}</td></tr>
{{/each}}</tbody></table>
{{/if}}
{{#if warnings.length}}
<h2>Warnings ({{warningCount}})</h2>
<p>What the target broke that a run passes (a SHOULD of an RFC or hardening no RFC requires; <code>--strict</code> makes them failures), and a parser's refusal of a request: once per rule and what came, with every check that met it and, where an answer showed it, the first curl.</p>
<table id="warnings"><thead><tr><th>target</th><th>rule</th><th>met by</th><th>what came</th></tr></thead><tbody>
{{#each warnings}}<tr><td>{{target}}</td><td class="rule"><code>{{rule}}</code></td><td>{{checks.length}}: {{#each checks}}<span{{#if anchor}} id="{{anchor}}"{{/if}}>{{check}}</span>{{#unless @last}}, {{/unless}}{{/each}}</td><td class="text"><details><summary>{{received}}</summary>{{text}}</details>{{#if curl}}<div class="curl"><pre>{{curl}}</pre><button type="button" data-copy="{{curl}}">Copy curl</button></div>{{/if}}</td></tr>
{{/each}}</tbody></table>
{{/if}}

<h2>Check x target</h2>
<table id="matrix">
  <thead><tr><th>check</th>{{#each targets}}<th>{{this}}</th>{{/each}}</tr></thead>
  <tbody>
  {{#each matrix}}<tr><td>{{check}}</td>{{#each cells}}<td class="{{outcome}}{{#if warned}} warned{{/if}}" title="{{note}}">{{#if href}}<a href="#{{href}}">{{mark}}</a>{{else}}{{mark}}{{/if}}{{#if warned}} <a class="warned" href="#{{warningsHref}}">{{warnedLabel}}</a>{{/if}}</td>{{/each}}</tr>
  {{/each}}
  </tbody>
</table>
<p class="muted" id="matrix-legend">PASS: every request the check sent kept what it holds · <span class="swatch" style="background: #fff1c2"></span> PASS with warnings: links to them · FAIL: links to the failure · SKIP: links to why it was not run.</p>

<h2>Coverage: operation x status x header</h2>
<p>{{#each coveragePercents}}{{target}}: {{percent}}%{{#unless @last}} · {{/unless}}{{/each}}. Each cell: the share of targets whose answers exercised it.</p>
<p id="heat-legend">Colours: <span class="swatch" style="background: hsl(100, 65%, 62%)"></span> every target ·
  <span class="swatch" style="background: hsl(50, 65%, 62%)"></span> half of them ·
  <span class="swatch" style="background: hsl(0, 65%, 62%)"></span> none ·
  <span class="swatch cannot"></span> blue hatching: no target here can be made to give it (a documented 500 on a live service: only a request that finds a defect provokes one), left out of the percent, not a gap ·
  <span class="swatch none"></span> striped grey: the spec does not document that header on that status. An answer that is not JSON exercises nothing.</p>
<table class="heat" id="heatmap">
  <thead><tr><th></th>{{#each heat.headers}}<th class="col">{{this}}</th>{{/each}}</tr></thead>
  <tbody>
  {{#each heat.rows}}<tr><th>{{row}}</th>{{#each cells}}{{#if cannot}}<td class="cannot" title="{{title}}"></td>{{else if documented}}<td data-share="{{share}}" title="{{title}}" style="background: hsl({{share}}, 65%, 62%)"></td>{{else}}<td class="none" title="{{title}}"></td>{{/if}}{{/each}}</tr>
  {{/each}}
  </tbody>
</table>

<h2>Failures ({{failures.length}})</h2>
{{#each failures}}
<div class="failure" id="{{anchor}}">
  <strong>{{check}}</strong> on {{target}}: {{title}}
  <pre>{{#each lines}}{{this}}
{{/each}}</pre>
  {{#if curl}}<div class="curl"><pre>{{curl}}</pre><button type="button" data-copy="{{curl}}">Copy curl</button></div>{{/if}}
</div>
{{else}}<p>None.</p>
{{/each}}

{{#if skips}}
<h2>Skipped ({{skips.length}})</h2>
<table id="skips"><thead><tr><th>target</th><th>check</th><th>why it was not run</th></tr></thead><tbody>
{{#each skips}}<tr id="{{anchor}}"><td>{{target}}</td><td>{{check}}</td><td>{{reason}}</td></tr>
{{/each}}</tbody></table>
{{/if}}
{{#if evidence}}
<h2>Evidence</h2>
{{#each evidence}}<p>{{target}}: {{tried}} of {{catalogue}} entries of the evidence catalogue tried.</p>
{{#if notTried.length}}<table class="evidence"><thead><tr><th>not tried</th><th>why</th></tr></thead><tbody>
{{#each notTried}}<tr><td>{{entry}}</td><td>{{why}}</td></tr>
{{/each}}</tbody></table>{{/if}}
{{/each}}
{{/if}}

<h2>Waits</h2>
{{#each waits}}
<div>{{target}} · {{check}}: {{seconds}} s, {{outcome}} ({{why}}), at {{startedAfter}} s
  <div class="timeline"><div class="bar {{outcome}}" style="left: {{left}}%; width: {{width}}%"></div></div></div>
{{else}}<p>No real waits.</p>
{{/each}}

<h2>Created on the targets</h2>
{{#each created}}<p>{{target}}: {{records}} records, each marked {{marker}} (ids {{ids}})</p>
{{else}}<p>Nothing.</p>
{{/each}}

<h2>Deprecated calls</h2>
{{#each deprecated}}<p>{{calls}} calls to {{operation}}{{#if sunset}}, sunset {{sunset}}{{/if}}{{#if clients}}, from {{clients}}{{/if}}</p>
{{else}}<p>None seen.</p>
{{/each}}

<script>
  for (const button of document.querySelectorAll('button[data-copy]'))
    button.addEventListener('click', () => navigator.clipboard.writeText(button.dataset.copy).then(() => (button.textContent = 'Copied')));
</script>
</body>
</html>
`;
