// The prerendered pages' start: their content is already in the HTML, so the app's script
// is fetched once the page has painted, not beside the stylesheet the first paint waits for.
// (An external file: the CSP allows no inline script.)
(() => {
  const entry = document.currentScript?.dataset.entry;
  if (!entry) return;
  let started = false;
  function start() {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  }
  // After the next frame is painted; a tab in the background paints no frame, so at the
  // latest after a second.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 1000);
})();
