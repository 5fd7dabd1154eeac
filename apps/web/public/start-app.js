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
  // Once the first paint is on screen: its paint-timing entry is queued when the frame is
  // shown, later than a frame callback runs (starting from one, the script's request could
  // still begin before the paint). A tab in the background paints nothing, and a browser
  // without paint timing has only the timer: at the latest after a second.
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {
    console.warn('No paint timing: the app starts on a timer', e);
  }
  setTimeout(start, 1000);
})();
