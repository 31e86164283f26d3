// The text of an embedded JSON script (a report's run data, a long table's rows): verbatim, or,
// when the page wrote it deflated and base64-encoded (render_html.cc EmbedJson, past 1 MiB),
// decoded with the browser's DecompressionStream. Resolves with the JSON text; a browser without
// DecompressionStream rejects (a report's tables and their first rows stand). The report page
// (web/app.js) and the `kpsim serve` page (web/serve.js, for the reports it is sent) both embed
// this file before their own script: cmake/EmbedWeb.cmake compiles it into kpsim_report and
// kpsim_app alike.
function kpsimReadEmbedded(el) {
  'use strict';
  return Promise.resolve().then(function () {
    var text = el.textContent;
    if (el.getAttribute('data-encoding') !== 'deflate-base64') return text;
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).text();
  });
}
